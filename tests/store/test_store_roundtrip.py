"""What goes in comes out: sites, versions, projects, files, stats, re-indexing."""

from __future__ import annotations

import msgspec
import pytest
from store_samples import (
    FILES,
    PIECEWISE,
    PROJECT,
    SITES,
    TOO_LONG,
    UNSUPPORTED,
    as_indexed,
    synthetic_files,
    synthetic_sites,
    version_info,
)

from errdex.errors import NotFoundError
from errdex.facts import MessageTemplate, Placeholder
from errdex.store import Store


def test_sites_come_back_as_written(filled: Store) -> None:
    stored = filled.list_sites(PROJECT, "1.0")

    assert [as_indexed(s) for s in stored] == [PIECEWISE, UNSUPPORTED, TOO_LONG]
    first = stored[0]
    assert (first.project, first.version, first.revision) == (PROJECT, "1.0", "a" * 40)
    assert first.url == f"https://example.org/demo/blob/{'a' * 40}/demo/config.py#L6-L6"


def test_neighbours_are_the_sites_of_a_file_in_brief(filled: Store) -> None:
    full = filled.list_sites(PROJECT, "1.0", "demo/config.py")
    brief = filled.neighbours(full[0].version_id, "demo/config.py")
    assert [(n.id, n.line, n.function, n.kind, n.names) for n in brief] == [
        (s.id, s.site.line, s.site.function, s.site.kind, s.site.names) for s in full
    ]
    assert [n.message for n in brief] == [s.site.message and s.site.message.text for s in full]
    assert [n.exception for n in brief] == [
        s.exception.name if s.exception else s.site.exception for s in full
    ]
    assert filled.neighbours(full[0].version_id, "no/such.py") == []


def test_list_sites_filters_by_file_and_limits(filled: Store) -> None:
    assert [s.id for s in filled.list_sites(file="demo/engine.py")] == [TOO_LONG.id]
    assert len(filled.list_sites(limit=2)) == 2
    assert filled.list_sites(PROJECT, file="no/such.py") == []
    with pytest.raises(NotFoundError):
        filled.list_sites("no-such-project")
    with pytest.raises(NotFoundError):
        filled.list_sites(PROJECT, "9.9")


def test_projects_and_versions(filled: Store) -> None:
    filled.write_version(version_info("1.10", "b" * 40), SITES, FILES)
    filled.write_version(version_info("1.9", "c" * 40), SITES, FILES)

    [project] = filled.projects()
    assert (project.name, project.versions) == (PROJECT, 3)
    assert project.tracker_url == "https://example.org/demo/issues"
    assert [v.label for v in filled.versions(PROJECT)] == ["1.10", "1.9", "1.0"]
    assert [v.label for v in filled.versions(PROJECT.upper())] == ["1.10", "1.9", "1.0"]


def test_project_names_compare_without_case(filled: Store) -> None:
    filled.write_version(version_info("2.0", project="DEMO"), SITES, FILES)

    assert [(p.name, p.versions) for p in filled.projects()] == [(PROJECT, 2)]
    assert filled.has_version("Demo", "2.0", "a" * 40)
    assert [s.version for s in filled.search_candidates(["PIECEWISE"], "dEmO")] == ["2.0", "1.0"]


def test_a_message_holding_nul_comes_back_whole(store: Store) -> None:
    odd = msgspec.structs.replace(
        TOO_LONG,
        site=msgspec.structs.replace(
            TOO_LONG.site, message=MessageTemplate.of("nul\x00inside ", Placeholder("x"))
        ),
    )
    store.write_version(version_info(), [odd], FILES)

    [back] = store.list_sites(PROJECT)
    assert as_indexed(back) == odd
    assert [s.id for s in store.search_candidates(["inside"])] == [odd.id]
    with pytest.raises(NotFoundError):
        store.list_sites("de\x00mo")


def test_get_error_gives_one_site_per_version_newest_first(filled: Store) -> None:
    filled.write_version(version_info("1.10", "b" * 40), SITES, FILES)
    filled.write_version(version_info("1.9", "c" * 40), SITES, FILES)

    found = filled.get_error(PIECEWISE.id)

    assert [s.version for s in found] == ["1.10", "1.9", "1.0"]
    assert {as_indexed(s) for s in found} == {PIECEWISE}


def test_an_unknown_error_id_is_not_found(filled: Store) -> None:
    with pytest.raises(NotFoundError, match="0123456789abcdef"):
        filled.get_error("0123456789abcdef")


def test_files_holding_sites_are_kept(filled: Store) -> None:
    [version] = filled.versions(PROJECT)

    text = filled.file_text(version.id, "demo/config.py")
    assert text == FILES["demo/config.py"].decode()
    assert filled.file_text((PROJECT, "1.0"), "demo/engine.py") == FILES["demo/engine.py"].decode()
    assert filled.file_text(version.id, "demo/unrelated.py") is None
    with pytest.raises(NotFoundError):
        filled.file_text((PROJECT, "2.0"), "demo/config.py")


def test_equal_file_contents_are_stored_once(filled: Store) -> None:
    filled.write_version(version_info("1.1", "b" * 40), SITES, FILES)

    assert filled.stats(PROJECT, "1.0").new_blobs == 2
    assert filled.stats(PROJECT, "1.1").new_blobs == 0
    assert filled._conn.execute("SELECT count(*) FROM blobs").fetchone() == (2,)  # type: ignore[attr-defined]


def test_files_are_kept_as_the_sites_of_each_chunk_refer_to_them(store: Store) -> None:
    # 1,500 sites over 1,200 files: the first sites refer to files 0-499, the last ones to
    # files 1000-1199 and again to 0-299; two files, first named far apart, hold one
    # content, and the files no site names are not kept.
    files = synthetic_files(1_300, size=500)
    files["pkg/sub20/mod700.py"] = files["pkg/sub0/mod0.py"]
    stats = store.write_version(version_info("3.0"), synthetic_sites(1_500, 1_200), files)

    assert (stats.files, stats.new_blobs) == (1_200, 1_199)
    for path in ("pkg/sub0/mod0.py", "pkg/sub20/mod700.py", "pkg/sub39/mod1199.py"):
        assert store.file_text((PROJECT, "3.0"), path) == files[path].decode()
    assert store.file_text((PROJECT, "3.0"), "pkg/sub0/mod1200.py") is None
    again = store.write_version(version_info("3.1"), synthetic_sites(1_500, 1_200), files)
    assert (again.files, again.new_blobs) == (1_200, 0)


def test_stats_describe_the_write(filled: Store) -> None:
    stats = filled.stats(PROJECT, "1.0")

    assert (stats.sites, stats.errors, stats.files) == (3, 3, 2)
    assert stats.kinds == {"log": 1, "raise": 2}
    assert not stats.replaced
    assert filled.stats(PROJECT) == stats


def test_reindexing_a_label_replaces_it(filled: Store) -> None:
    stats = filled.write_version(version_info("1.0", "d" * 40), [TOO_LONG], FILES)

    assert stats.replaced
    assert [s.id for s in filled.list_sites(PROJECT)] == [TOO_LONG.id]
    assert [v.revision for v in filled.versions(PROJECT)] == ["d" * 40]
    assert filled.search_candidates(["PIECEWISE"]) == []
    assert filled.file_text((PROJECT, "1.0"), "demo/config.py") is None
    # The error's identity stays, though no version holds it now.
    conn = filled._conn  # type: ignore[attr-defined]
    assert conn.execute("SELECT 1 FROM errors WHERE id = ?", (PIECEWISE.id,)).fetchone()
    assert conn.execute("SELECT count(*) FROM blobs").fetchone() == (1,)


def test_has_version_checks_the_revision(filled: Store) -> None:
    assert filled.has_version(PROJECT, "1.0", "a" * 40)
    assert not filled.has_version(PROJECT, "1.0", "b" * 40)
    assert not filled.has_version(PROJECT, "2.0", "a" * 40)
    assert not filled.has_version("other", "1.0", "a" * 40)


def test_delete_version(filled: Store) -> None:
    filled.delete_version(PROJECT, "1.0")

    assert filled.versions(PROJECT) == []
    assert filled.list_sites() == []
    with pytest.raises(NotFoundError):
        filled.get_error(PIECEWISE.id)
    with pytest.raises(NotFoundError):
        filled.delete_version(PROJECT, "1.0")


def test_two_projects_stay_apart(filled: Store) -> None:
    other = version_info("1.0", project="other", link_template="")
    filled.write_version(other, [msgspec.structs.replace(PIECEWISE, id="0" * 16)], FILES)

    assert [p.name for p in filled.projects()] == [PROJECT, "other"]
    assert len(filled.list_sites("other")) == 1
    assert filled.list_sites("other")[0].url is None
    assert len(filled.list_sites(version="1.0")) == 4
