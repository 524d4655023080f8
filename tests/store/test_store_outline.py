"""A stored file's outline (the lines its top-level statements start on) comes back with it;
the kept files of a folder are listed."""

from __future__ import annotations

from store_samples import FILES, PROJECT, SITES, version_info

from errdex.sources.base import VersionInfo
from errdex.store import Store
from errdex.store.contents import pack_outline, unpack_outline


def _with_outlines(info: VersionInfo, outlines: dict[str, bytes]) -> VersionInfo:
    info.outlines = outlines
    return info


def test_a_files_outline_is_kept_with_its_content(store: Store) -> None:
    outlines = {"demo/config.py": pack_outline((1, 3, 200, 201))}
    store.write_version(_with_outlines(version_info("1.0"), outlines), SITES, FILES)
    [version] = store.versions(PROJECT)

    assert store.file_outline(version.id, "demo/config.py") == (1, 3, 200, 201)
    # a file written without one, a file not kept
    assert store.file_outline(version.id, "demo/engine.py") is None
    assert store.file_outline(version.id, "demo/unrelated.py") is None


def test_a_content_stored_before_keeps_the_outline_it_was_stored_with(store: Store) -> None:
    store.write_version(version_info("1.0"), SITES, FILES)
    outlines = {"demo/config.py": pack_outline((2, 4))}
    store.write_version(_with_outlines(version_info("1.1", "b" * 40), outlines), SITES, FILES)
    [newer, _] = store.versions(PROJECT)

    assert store.file_outline(newer.id, "demo/config.py") is None  # the same content: none


def test_packed_outlines_read_back() -> None:
    for starts in [(1,), (1, 2, 3), (5, 140, 141, 100_000)]:
        assert unpack_outline(pack_outline(starts)) == starts
    assert len(pack_outline(list(range(1, 201)))) < 210  # a byte a statement, and a header
    assert unpack_outline(None) is None
    assert unpack_outline(b"") is None
    assert unpack_outline(b"\xc1") is None  # unreadable


def test_the_kept_files_of_a_folder_are_listed(store: Store) -> None:
    store.write_version(version_info("1.0"), SITES, FILES)
    [version] = store.versions(PROJECT)

    # the files holding sites, right in the folder: not one not kept, nor another folder's
    assert store.kept_paths(version.id, "demo/") == ("demo/config.py", "demo/engine.py")
    assert store.kept_paths(version.id, "dem/") == ()
    assert store.kept_paths(version.id, "") == ()
