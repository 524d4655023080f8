"""An archive source reads one file alone (a zip's member, without unpacking the rest) and
keeps its archive's digest, so a lookup into a big wheel reads only what it needs."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from errdex.sources.archive import ArchiveSource

MEMBERS: dict[str, bytes | str] = {
    "demo/__init__.py": "from .core import run\n",
    "demo/core.py": "def run():\n    raise ValueError('no run today')\n",
    "demo/core.pyi": "def run() -> None: ...\n",
    "demo/../escape.py": "X = 1\n",
    "demo_pkg-1.2.3.data/purelib/extra_mod.py": "E = 1\n",
    "demo_pkg-1.2.3.dist-info/METADATA": "Metadata-Version: 2.1\nName: demo\nVersion: 1.2.3\n",
}


def make_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return path


def make_tar(path: Path, members: dict[str, bytes | str]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, content in members.items():
            data = content.encode() if isinstance(content, str) else content
            info = tarfile.TarInfo(f"demo-1.2.3/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))


def test_a_zip_reads_each_file_alone_as_files_yields_it(tmp_path: Path) -> None:
    source = ArchiveSource(make_zip(tmp_path / "demo_pkg-1.2.3-py3-none-any.whl", MEMBERS))
    every = {f.path: f.data for f in source.files()}
    assert source.paths() == sorted(every) == ["demo/__init__.py", "demo/core.py", "extra_mod.py"]
    assert {path: source.read(path) for path in source.paths()} == every
    assert source.read("demo/core.pyi") is None  # a stub beside its module is not a file here
    assert source.read("escape.py") is None and source.read("demo/../escape.py") is None


def test_a_tar_reads_its_files_from_one_pass(tmp_path: Path) -> None:
    source = ArchiveSource(make_tar(tmp_path / "demo-1.2.3.tar.gz", MEMBERS))
    assert source.read("demo/core.py") == b"def run():\n    raise ValueError('no run today')\n"
    assert source.read("nothing.py") is None


def test_the_digest_is_kept_until_the_archive_changes(tmp_path: Path) -> None:
    wheel = make_zip(tmp_path / "demo_pkg-1.2.3-py3-none-any.whl", MEMBERS)
    first = ArchiveSource(wheel).info.revision
    assert first == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert ArchiveSource(wheel).info.revision == first
    make_zip(wheel, {**MEMBERS, "demo/more.py": "Y = 2\n"})  # replaced in place
    os.utime(wheel, ns=(1, 1))
    assert ArchiveSource(wheel).info.revision == hashlib.sha256(wheel.read_bytes()).hexdigest()
