"""An archive source reads wheels and sdists member by member, safely, extracting nothing."""

from __future__ import annotations

import hashlib
import io
import stat
import struct
import tarfile
import zipfile
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources.archive import ArchiveSource
from errdex.sources.base import MAX_FILE_BYTES

METADATA = """\
Metadata-Version: 2.1
Name: Demo-Pkg
Version: 1.2.3
Project-URL: Documentation, https://demo.example.org/docs
Project-URL: Bug Tracker, https://github.com/acme/demo/issues
Project-URL: Source, https://github.com/acme/demo
Project-URL: Homepage, https://demo.example.org

A long description that is not a header.
"""
WHEN = (2024, 1, 2, 3, 4, 6)


def make_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in members.items():
            data = content.encode() if isinstance(content, str) else content
            info = zipfile.ZipInfo(name, date_time=WHEN)
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    return path


def make_tar(
    path: Path,
    members: dict[str, bytes | str],
    mode: str = "w:gz",
    specials: tuple[tarfile.TarInfo, ...] = (),
) -> Path:
    with tarfile.open(path, mode) as archive:
        for name, content in members.items():
            data = content.encode() if isinstance(content, str) else content
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1_700_000_000
            archive.addfile(info, io.BytesIO(data))
        for info in specials:
            archive.addfile(info)
    return path


def read(source: ArchiveSource) -> dict[str, bytes]:
    return {f.path: f.data for f in source.files()}


def reasons(source: ArchiveSource) -> dict[str, str]:
    return {s.path: s.reason for s in source.skipped}


def test_a_wheel_yields_its_python_files_and_its_metadata(tmp_path: Path) -> None:
    wheel = make_zip(
        tmp_path / "demo_pkg-1.2.3-py3-none-any.whl",
        {
            "demo/__init__.py": "from .core import run\n",
            "demo/core.py": b"raise ValueError('\xff')\n",
            "demo/core.pyi": "def run() -> None: ...\n",
            "demo/typed.pyi": "X: int\n",
            "demo/data.json": "{}",
            "demo_pkg-1.2.3.data/purelib/extra_mod.py": "E = 1\n",
            "demo_pkg-1.2.3.dist-info/METADATA": METADATA,
            "demo_pkg-1.2.3.dist-info/RECORD": "",
        },
    )
    source = ArchiveSource(wheel)
    assert read(source) == {
        "demo/__init__.py": b"from .core import run\n",
        "demo/core.py": b"raise ValueError('\xff')\n",
        "demo/typed.pyi": b"X: int\n",
        "extra_mod.py": b"E = 1\n",
    }
    info = source.info
    assert (info.project, info.version, info.source_kind) == ("Demo-Pkg", "1.2.3", "wheel")
    assert info.revision == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert info.date == "2024-01-02T03:04:06+00:00"
    assert info.tracker_url == "https://github.com/acme/demo/issues"
    assert info.homepage == "https://demo.example.org"
    assert info.link_template == "https://github.com/acme/demo/blob/v1.2.3/{path}#L{line}"
    assert source.skipped == []


@pytest.mark.parametrize(
    ("suffix", "mode"),
    [("tar.gz", "w:gz"), ("tgz", "w:gz"), ("tar.bz2", "w:bz2"), ("tar.xz", "w:xz"), ("zip", "")],
)
def test_an_sdist_drops_its_top_folder_and_reads_pkg_info(
    tmp_path: Path, suffix: str, mode: str
) -> None:
    members: dict[str, bytes | str] = {
        "demo-1.2.3/PKG-INFO": METADATA,
        "demo-1.2.3/setup.py": "from setuptools import setup\n",
        "demo-1.2.3/src/demo/__init__.py": "X = 1\n",
        "demo-1.2.3/src/demo.egg-info/PKG-INFO": "Name: wrong\nVersion: 0\n",
        "demo-1.2.3/tests/test_demo.py": "def test(): ...\n",
    }
    path = tmp_path / f"demo-1.2.3.{suffix}"
    if mode:
        make_tar(path, members, mode)
    else:
        make_zip(path, members)
    source = ArchiveSource(path)
    assert sorted(read(source)) == ["setup.py", "src/demo/__init__.py", "tests/test_demo.py"]
    info = source.info
    assert (info.project, info.version, info.source_kind) == ("Demo-Pkg", "1.2.3", "sdist")
    assert info.revision == hashlib.sha256(path.read_bytes()).hexdigest()
    assert info.date is not None


def test_without_metadata_the_file_name_gives_project_and_version(tmp_path: Path) -> None:
    wheel = make_zip(tmp_path / "demo_pkg-0.5-py3-none-any.whl", {"demo/a.py": ""})
    assert (ArchiveSource(wheel).info.project, ArchiveSource(wheel).info.version) == (
        "demo-pkg",
        "0.5",
    )
    sdist = make_tar(tmp_path / "legacy-thing-0.1.tar.gz", {"legacy-thing-0.1/a.py": ""})
    info = ArchiveSource(sdist).info
    assert (info.project, info.version, info.link_template) == ("legacy-thing", "0.1", None)


def test_the_github_link_is_pinned_to_the_release_tag_without_a_local_label(
    tmp_path: Path,
) -> None:
    wheel = make_zip(
        tmp_path / "demo_pkg-2.0+cpu-py3-none-any.whl",
        {
            "demo/a.py": "",
            "demo_pkg-2.0+cpu.dist-info/METADATA": METADATA.replace("1.2.3", "2.0+cpu"),
        },
    )
    info = ArchiveSource(wheel).info
    assert info.version == "2.0+cpu"
    assert info.link_template == "https://github.com/acme/demo/blob/v2.0/{path}#L{line}"


def test_zip_members_escaping_the_archive_are_skipped_and_reading_goes_on(
    tmp_path: Path,
) -> None:
    wheel = make_zip(
        tmp_path / "evil-1.0-py3-none-any.whl",
        {"../evil.py": "boom", "/abs/evil.py": "boom", "C:/win/evil.py": "boom", "ok.py": "ok"},
    )
    with zipfile.ZipFile(wheel, "a") as archive:
        link = zipfile.ZipInfo("link.py", date_time=WHEN)
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    source = ArchiveSource(wheel)
    assert read(source) == {"ok.py": b"ok"}
    assert reasons(source) == {
        "../evil.py": "path escapes the archive ('..' component)",
        "/abs/evil.py": "absolute path in archive",
        "C:/win/evil.py": "absolute path in archive",
        "link.py": "link member",
    }


def test_tar_links_devices_and_escaping_members_are_skipped(tmp_path: Path) -> None:
    link = tarfile.TarInfo("evil-1.0/link.py")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    hard = tarfile.TarInfo("evil-1.0/hard.py")
    hard.type, hard.linkname = tarfile.LNKTYPE, "evil-1.0/ok.py"
    device = tarfile.TarInfo("evil-1.0/dev.py")
    device.type = tarfile.CHRTYPE
    fifo = tarfile.TarInfo("evil-1.0/fifo.py")
    fifo.type = tarfile.FIFOTYPE
    sdist = make_tar(
        tmp_path / "evil-1.0.tar.gz",
        {"evil-1.0/ok.py": "ok", "evil-1.0/../../evil.py": "boom", "/etc/evil.py": "boom"},
        specials=(link, hard, device, fifo),
    )

    source = ArchiveSource(sdist)
    assert read(source) == {"ok.py": b"ok"}
    got = reasons(source)
    assert got["evil-1.0/../../evil.py"].startswith("path escapes the archive")
    assert got["/etc/evil.py"] == "absolute path in archive"
    assert got["link.py"] == got["hard.py"] == "link member"
    assert got["dev.py"].startswith("not a regular file")
    assert got["fifo.py"].startswith("not a regular file")


def _lie_about_size(path: Path, name: str, size: int) -> None:
    """Rewrite a zip member's declared uncompressed size in both of its headers."""
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        offset = archive.getinfo(name).header_offset
    struct.pack_into("<I", raw, offset + 22, size)
    start = 0
    while (start := raw.find(b"PK\x01\x02", start)) != -1:
        length = struct.unpack_from("<H", raw, start + 28)[0]
        if raw[start + 46 : start + 46 + length] == name.encode():
            struct.pack_into("<I", raw, start + 24, size)
        start += 4
    path.write_bytes(bytes(raw))


def test_zip_bombs_are_skipped_without_trusting_headers(tmp_path: Path) -> None:
    zeros = bytes(50 * 1024 * 1024)
    wheel = make_zip(
        tmp_path / "bomb-1.0-py3-none-any.whl",
        {
            "pkg/bomb.py": zeros,  # declares 50 MB
            "pkg/dense.py": zeros[: 2 * 1024 * 1024],  # under the limit, but ~1000:1
            "pkg/liar.py": zeros,  # 50 MB that will claim to be 100 bytes
            "pkg/ok.py": "ok",
        },
    )
    _lie_about_size(wheel, "pkg/liar.py", 100)

    source = ArchiveSource(wheel)
    assert read(source) == {"pkg/ok.py": b"ok"}
    got = reasons(source)
    assert got["pkg/bomb.py"] == f"too large ({len(zeros)} bytes; the limit is {MAX_FILE_BYTES})"
    assert "compression ratio" in got["pkg/dense.py"]
    assert got["pkg/liar.py"].startswith("unreadable member")


def test_tar_members_over_the_limit_are_skipped_and_the_stream_goes_on(
    tmp_path: Path,
) -> None:
    sdist = make_tar(
        tmp_path / "big-1.0.tar.gz",
        {
            "big-1.0/big.py": b"#" * (MAX_FILE_BYTES + 1),
            "big-1.0/after.py": "after",
        },
    )
    source = ArchiveSource(sdist)
    assert read(source) == {"after.py": b"after"}
    assert reasons(source)["big.py"].startswith("too large")


def test_a_tar_stream_unpacking_past_its_limit_is_refused(tmp_path: Path) -> None:
    sdist = make_tar(tmp_path / "bomb-1.0.tar.gz", {"bomb-1.0/zeros.bin": bytes(8 << 20)})
    with pytest.raises(SourceError, match="possible decompression bomb"):
        ArchiveSource(sdist, max_unpacked_bytes=1 << 20)


def test_corrupt_archives_are_a_clear_source_error(tmp_path: Path) -> None:
    garbage = tmp_path / "bad-1.0-py3-none-any.whl"
    garbage.write_bytes(b"PK\x03\x04 this is not a zip file at all")
    with pytest.raises(SourceError, match=r"not a valid wheel \("):
        ArchiveSource(garbage)

    members: dict[str, bytes | str] = {f"cut-1.0/m{i}.py": f"{i}" * 5000 for i in range(9)}
    cut = make_tar(tmp_path / "cut-1.0.tar.gz", members)
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])  # truncated mid-stream
    with pytest.raises(SourceError, match=r"not a valid sdist \("):
        ArchiveSource(cut)

    text = tmp_path / "text-1.0.tar.gz"
    text.write_bytes(b"just text")
    with pytest.raises(SourceError, match="not a valid sdist"):
        ArchiveSource(text)


def test_nothing_is_extracted_to_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sdist = make_tar(tmp_path / "demo-1.0.tar.gz", {"demo-1.0/demo/a.py": "A = 1\n"})
    wheel = make_zip(tmp_path / "demo-1.0-py3-none-any.whl", {"demo/a.py": "A = 1\n"})
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    assert read(ArchiveSource(sdist)) == read(ArchiveSource(wheel)) == {"demo/a.py": b"A = 1\n"}
    assert sorted(tmp_path.rglob("*")) == before


def test_a_missing_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file or directory"):
        ArchiveSource(tmp_path / "gone-1.0.tar.gz")
