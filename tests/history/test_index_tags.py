"""`errdex index REPO --tags PATTERN`: every matching tag, oldest first, as its own version;
files a tag did not change come from the content-hash cache."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from history_samples import Indexed

from errdex.cli import main
from errdex.store.base import Store


def test_each_matching_tag_is_a_version_oldest_first(indexed: Indexed, store: Store) -> None:
    assert [r["version"] for r in indexed.reports] == ["v1.0", "v1.1", "v2.0"]
    assert [v.label for v in store.versions("shop")] == ["v2.0", "v1.1", "v1.0"]
    assert all(v.source_kind == "git" for v in store.versions("shop"))
    # `nightly` does not match 'v*': its file is in no version.
    assert store.list_sites("shop", file="shop/extra.py") == []


def test_only_the_files_a_tag_changed_are_parsed(indexed: Indexed) -> None:
    v10, v11, v20 = indexed.reports
    # v1.0: __init__, cart, pay. v1.1 rewrote cart and added limits. v2.0 rewrote pay.
    assert (v10["files"], v10["parsed"], v10["cached"]) == (3, 3, 0)
    assert (v11["files"], v11["parsed"], v11["cached"]) == (4, 2, 2)
    assert (v20["files"], v20["parsed"], v20["cached"]) == (4, 1, 3)
    assert [r["sites"] for r in indexed.reports] == [5, 5, 5]


def test_indexing_the_tags_again_finds_them_up_to_date(indexed: Indexed) -> None:
    reports = indexed.json("index", str(indexed.repo), "--tags", "v*", "--workers", "1")
    assert [(r["version"], r["up_to_date"]) for r in reports] == [
        ("v1.0", True),
        ("v1.1", True),
        ("v2.0", True),
    ]


def test_a_pattern_no_tag_matches_is_an_error(indexed: Indexed) -> None:
    code, _, err = indexed.run("index", str(indexed.repo), "--tags", "release-*")
    assert code == 2
    assert "no tag" in err and "release-*" in err


def test_tags_name_the_versions_so_version_is_refused(indexed: Indexed) -> None:
    code, _, err = indexed.run("index", str(indexed.repo), "--tags", "v*", "--version", "9")
    assert code == 2
    assert "--version" in err


def test_tags_of_a_folder_that_is_no_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    db = str(tmp_path / "errdex.db")
    result = CliRunner().invoke(main, ["index", str(plain), "--tags", "v*", "--db", db])
    assert result.exit_code == 2
    assert "not a git repository" in result.stderr
