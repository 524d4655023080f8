"""A wheel's link moved under the folder its sdist keeps the files in (`src/`, `lib/`)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from errdex.sources import repo_layout
from errdex.sources.archive import ArchiveSource
from errdex.sources.pypi import pypi_source
from errdex.sources.repo_layout import fetch_sdist, folder_of, with_layout

META = "Name: demo\nVersion: 1.0\nProject-URL: Source, https://github.com/acme/demo\n"
SHA = "4ba787ec9a1b2c3d4e5f60718293a4b5c6d7e8f9"


def _wheel(tmp_path: Path, names: list[str]) -> ArchiveSource:
    path = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, "x = 1\n")
        archive.writestr("demo-1.0.dist-info/METADATA", META)
    return ArchiveSource(path)


def _sdist(tmp_path: Path, members: dict[str, str]) -> Path:
    path = tmp_path / "demo-1.0.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        for name, text in {"demo-1.0/PKG-INFO": META, **members}.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_the_one_folder_that_holds_the_wheels_files_is_found() -> None:
    wheel = ["demo/__init__.py", "demo/core.py"]
    assert folder_of(wheel, ["src/demo/__init__.py", "src/demo/core.py", "tests/t.py"]) == "src/"
    assert folder_of(wheel, ["demo/__init__.py", "demo/core.py", "docs/conf.py"]) == ""
    # a copy deeper (a test fixture) does not outvote the real one
    listed = ["lib/demo/__init__.py", "lib/demo/core.py", "tests/data/demo/core.py"]
    assert folder_of(wheel, listed) == "lib/"
    # too few of the wheel's files, or a mixed layout: no evidence
    assert folder_of(wheel, ["src/demo/core.py"]) == "src/"  # half of them
    assert folder_of([*wheel, "a.py", "b.py", "c.py"], ["src/demo/core.py"]) is None
    assert folder_of(wheel, ["src/demo/__init__.py", "demo/core.py"]) is None
    assert folder_of(wheel, []) is None


def test_a_src_layout_moves_the_link_and_says_how_it_is_known(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, ["demo/__init__.py", "demo/core.py"])
    assert wheel.info.pin is not None and wheel.info.pin.path_basis is None
    sdist = _sdist(
        tmp_path,
        {
            "demo-1.0/src/demo/__init__.py": "",
            "demo-1.0/src/demo/core.py": "",
            "demo-1.0/.git_archival.txt": f"node: {SHA}\n",
        },
    )
    info = with_layout(wheel.info, wheel.paths(), sdist)
    assert info.link_template == f"https://github.com/acme/demo/blob/{SHA}/src/" + "{path}#L{line}"
    assert info.pin is not None
    # the commit the sdist records replaces the tag guessed from the version
    assert (info.pin.kind, info.pin.guessed) == ("commit", False)
    assert info.pin.path_basis == "as its sdist lists it, under src/"


def test_hostile_sdists_give_no_folder_and_the_path_stays_guessed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wheel = _wheel(tmp_path, ["demo/__init__.py", "demo/core.py"])
    guessed = "https://github.com/acme/demo/blob/v1.0/{path}#L{line}"
    # a member climbing out of the archive is not listed, so it is no evidence
    climbing = _sdist(
        tmp_path, {"demo-1.0/../evil/demo/__init__.py": "", "demo-1.0/../evil/demo/core.py": ""}
    )
    info = with_layout(wheel.info, wheel.paths(), climbing)
    assert info.link_template == guessed
    assert info.pin is not None and info.pin.path_basis is None
    # a listing longer than the limit is not matched
    monkeypatch.setattr(repo_layout, "MAX_LISTED", 10)
    huge = {f"demo-1.0/src/demo/m{i}.py": "" for i in range(11)}
    listed = _sdist(
        tmp_path, {**huge, "demo-1.0/src/demo/__init__.py": "", "demo-1.0/src/demo/core.py": ""}
    )
    assert with_layout(wheel.info, wheel.paths(), listed).link_template == guessed
    # no sdist, or one that is not an archive at all
    assert with_layout(wheel.info, wheel.paths(), None) == wheel.info
    broken = tmp_path / "demo-1.0.zip"
    broken.write_bytes(b"PK not really")
    assert with_layout(wheel.info, wheel.paths(), broken).link_template == guessed


@pytest.mark.network
def test_a_real_src_layout_release_links_where_its_sdist_lists_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    source = pypi_source("click==8.1.7")
    assert source.wheel
    template = source.info.link_template
    assert template == "https://github.com/pallets/click/blob/v8.1.7/src/{path}#L{line}"
    sdist = tmp_path / "cache" / "downloads" / "click-8.1.7.tar.gz"
    listed = set(ArchiveSource(sdist).paths())
    assert all(f"src/{path}" in listed for path in source.paths())
    # the sdist is kept: a second read asks the index for nothing
    assert fetch_sdist("click", "8.1.7", sdist.parent) == sdist
    # an sdist larger than the cap is not downloaded: no evidence, nothing pretended
    monkeypatch.setattr(repo_layout, "MAX_SDIST_BYTES", 1000)
    (tmp_path / "other").mkdir()
    assert fetch_sdist("click", "8.1.7", tmp_path / "other") is None
    # nothing but the record of its size, so that the next index asks nothing
    assert [p.name for p in (tmp_path / "other").iterdir()] == [".sdists"]
    # nor is one already cached read past the cap
    assert fetch_sdist("click", "8.1.7", sdist.parent) is None


@pytest.mark.network
def test_a_first_answer_waits_on_no_sdist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # lookup's partial index opens releases with layout=False: no second download
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    source = pypi_source("click==8.1.7", layout=False)
    assert (
        source.info.link_template == "https://github.com/pallets/click/blob/v8.1.7/{path}#L{line}"
    )
    assert not (tmp_path / "cache" / "downloads" / "click-8.1.7.tar.gz").exists()
    assert source.info.pin is not None and source.info.pin.path_basis is None
