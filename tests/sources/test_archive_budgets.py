"""An archive is read within budgets of the whole: unpacked bytes and members, for zips as
for tars; a member past them is skipped with a reason, never held in memory."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import tarfile
import textwrap
import tracemalloc
import zlib
from pathlib import Path

import pytest

import errdex.sources.archive as archive_module
from errdex.errors import SourceError
from errdex.sources.archive import ArchiveSource, zip_member_count

_LOCAL = struct.Struct("<4s5H3L2H")
_CENTRAL = struct.Struct("<4s6H3L5H2L")
_END = struct.Struct("<4s4H2LH")


def repeated_zip(path: Path, names: list[str], payload: bytes) -> Path:
    """A real zip whose members all hold `payload`, deflated once (writing 2 GB of zeros
    through zipfile would take the test's time on compressing, not on reading)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(payload) + packer.flush()
    crc = zlib.crc32(payload)
    local, central = bytearray(), bytearray()
    for name in names:
        raw = name.encode()
        offset = len(local)
        local += _LOCAL.pack(
            b"PK\x03\x04", 20, 0, 8, 0, 0x5821, crc, len(packed), len(payload), len(raw), 0
        )
        local += raw + packed
        central += _CENTRAL.pack(
            b"PK\x01\x02",
            20,
            20,
            0,
            8,
            0,
            0x5821,
            crc,
            len(packed),
            len(payload),
            len(raw),
            0,
            0,
            0,
            0,
            0o100644 << 16,
            offset,
        )
        central += raw
    end = _END.pack(b"PK\x05\x06", 0, 0, len(names), len(names), len(central), len(local), 0)
    path.write_bytes(bytes(local + central + end))
    return path


def test_a_small_zip_of_many_members_just_under_a_mebibyte_is_read_in_bounded_memory(
    tmp_path: Path,
) -> None:
    # The attack: 2.3 MB of zip holding 2.2 GB; every member was once held in memory.
    names = [f"pkg/m{i}.py" for i in range(2200)]
    wheel = repeated_zip(tmp_path / "bomb-1.0-py3-none-any.whl", names, bytes(1024 * 1024 - 1))
    assert wheel.stat().st_size < 2_600_000
    script = textwrap.dedent(
        f"""
        import resource
        from errdex.indexing import index_source
        from errdex.indexing.cache import FactsCache
        from errdex.sources import open_source
        from errdex.store import open_store

        store = open_store({str(tmp_path / "index.db")!r})
        report = index_source(
            open_source({str(wheel)!r}), store,
            cache=FactsCache(__import__("pathlib").Path({str(tmp_path / "facts.db")!r})),
            workers=1,
        )
        reasons = {{s.reason.split(" (")[0] for s in report.skipped}}
        print(report.files, len(report.skipped), sorted(reasons))
        # VmHWM is this process's own peak; ru_maxrss would carry over the peak of the
        # process it was forked from (the test runner's) across exec.
        status = open("/proc/self/status").read()
        peak = [int(l.split()[1]) for l in status.splitlines() if l.startswith("VmHWM:")]
        print((peak or [resource.getrusage(resource.RUSAGE_SELF).ru_maxrss])[0] // 1024)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    summary, peak_mb = done.stdout.strip().splitlines()
    assert summary == "0 2200 ['suspicious compression ratio']"
    assert int(peak_mb) < 300  # before: 2,100 MB


def test_zip_members_past_the_unpacked_budget_are_skipped_with_the_reason(
    tmp_path: Path,
) -> None:
    names = [f"pkg/m{i}.py" for i in range(5)]
    wheel = repeated_zip(tmp_path / "many-1.0-py3-none-any.whl", names, b"x = 1\n" * 500)
    source = ArchiveSource(wheel, max_unpacked_bytes=7000)
    read = [f.path for f in source.files()]
    assert read == ["pkg/m0.py", "pkg/m1.py"]
    assert {s.path: s.reason for s in source.skipped} == {
        f"pkg/m{i}.py": "the archive's budget of 7000 unpacked bytes is spent" for i in (2, 3, 4)
    }


def test_a_zip_member_lying_about_its_size_cannot_overdraw_the_budget(tmp_path: Path) -> None:
    wheel = repeated_zip(tmp_path / "liar-1.0-py3-none-any.whl", ["pkg/a.py"], b"#" * 5000)
    raw = bytearray(wheel.read_bytes())
    central = raw.rfind(b"PK\x01\x02")
    struct.pack_into("<L", raw, central + 24, 10)  # declares 10 bytes unpacked
    wheel.write_bytes(bytes(raw))
    source = ArchiveSource(wheel, max_unpacked_bytes=1000)
    assert list(source.files()) == []
    [skipped] = source.skipped
    assert skipped.path == "pkg/a.py"


def test_archives_of_more_members_than_the_limit_are_refused_before_reading_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive_module, "MAX_MEMBERS", 10)
    names = [f"pkg/m{i}.py" for i in range(11)]
    wheel = repeated_zip(tmp_path / "wide-1.0-py3-none-any.whl", names, b"x = 1\n")
    assert zip_member_count(wheel) == 11
    with pytest.raises(SourceError, match="declares 11 members; the limit is 10"):
        ArchiveSource(wheel)

    sdist = tmp_path / "wide-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tar:
        for name in names:
            info = tarfile.TarInfo(f"wide-1.0/{name}")
            info.size = 6
            tar.addfile(info, io.BytesIO(b"x = 1\n"))
    with pytest.raises(SourceError, match="holds more than 10 members"):
        ArchiveSource(sdist)


def test_only_a_few_files_that_may_hold_the_metadata_are_kept_while_listing(
    tmp_path: Path,
) -> None:
    names = [f"d{i}.dist-info/METADATA" for i in range(400)]
    metadata = b"Metadata-Version: 2.1\nName: meta\nVersion: 1.0\n" + b"#" * 500_000
    wheel = repeated_zip(tmp_path / "meta-1.0-py3-none-any.whl", names, metadata)
    tracemalloc.start()
    try:
        source = ArchiveSource(wheel)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (source.info.project, source.info.version) == ("meta", "1.0")
    assert peak < 40_000_000  # before: every candidate kept, 400 × 0.5 MB
