"""Sources yield a release's gettext catalogs besides its Python files: the compiled `.mo`
files gettext reads, a `.po` only where no `.mo` is beside it."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest
from test_archive import make_tar, make_zip
from test_directory import write

from errdex.extract.gettext_catalogs import parse_catalog
from errdex.sources.archive import ArchiveSource
from errdex.sources.directory import DirectorySource
from errdex.sources.git import GitSource
from errdex.sources.installed import installed_source
from samples import commit, git

MEMBERS: dict[str, bytes | str] = {
    "demo/__init__.py": "",
    "demo/locale/de/LC_MESSAGES/demo.mo": b"compiled de",
    "demo/locale/de/LC_MESSAGES/demo.po": 'msgid "x"\nmsgstr "y"\n',
    "demo/locale/fr/LC_MESSAGES/demo.po": 'msgid "x"\nmsgstr "z"\n',
    "demo/locale/demo.pot": 'msgid "x"\nmsgstr ""\n',
}
EXPECTED = {
    "demo/locale/de/LC_MESSAGES/demo.mo": b"compiled de",
    "demo/locale/fr/LC_MESSAGES/demo.po": b'msgid "x"\nmsgstr "z"\n',
}


def test_a_wheel_yields_its_catalogs(tmp_path: Path) -> None:
    source = ArchiveSource(make_zip(tmp_path / "demo-1.0-py3-none-any.whl", MEMBERS))
    assert {f.path: f.data for f in source.catalogs()} == EXPECTED
    assert [f.path for f in source.files()] == ["demo/__init__.py"]


def test_an_sdist_yields_its_catalogs_under_its_top_folder(tmp_path: Path) -> None:
    members = {f"demo-1.0/{name}": data for name, data in MEMBERS.items()}
    source = ArchiveSource(make_tar(tmp_path / "demo-1.0.tar.gz", members))
    assert {f.path: f.data for f in source.catalogs()} == EXPECTED


def test_a_directory_yields_its_catalogs(tmp_path: Path) -> None:
    write(tmp_path, {**MEMBERS, ".venv/lib/locale/de/LC_MESSAGES/other.mo": b"not ours"})
    source = DirectorySource(tmp_path)
    assert {f.path: f.data for f in source.catalogs()} == EXPECTED


def test_an_installed_distribution_yields_its_catalogs() -> None:
    # tornado (which distributed needs) ships a compiled catalog, and its `.po`, in its tests.
    try:
        importlib.metadata.distribution("tornado")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("tornado is not installed here")
    found = {f.path: f.data for f in installed_source("tornado").catalogs()}
    compiled = "tornado/test/gettext_translations/fr_FR/LC_MESSAGES/tornado_test.mo"
    assert list(found) == [compiled]
    catalog = parse_catalog(compiled, found[compiled])
    assert catalog is not None and catalog.language == "fr_FR" and catalog.entries


def test_a_git_revision_yields_its_catalogs(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    commit(tmp_path, {**MEMBERS, "build/locale/de/LC_MESSAGES/old.mo": b"built"}, "one")
    (tmp_path / "demo/locale/fr/LC_MESSAGES/demo.po").write_text("uncommitted")
    source = GitSource(tmp_path, "HEAD")
    assert {f.path: f.data for f in source.catalogs()} == EXPECTED
    assert [f.path for f in source.files()] == ["demo/__init__.py"]
