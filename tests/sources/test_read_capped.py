"""A file on disk is read whole up to the cap, as one read of the cap and a byte would."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from errdex.sources import _common
from errdex.sources._common import read_capped
from errdex.sources.base import MAX_FILE_BYTES, Skipped


@pytest.mark.parametrize("size", [0, 1, 4096, MAX_FILE_BYTES - 1, MAX_FILE_BYTES])
def test_a_file_within_the_cap_is_read_whole(tmp_path: Path, size: int) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
    skipped: list[Skipped] = []
    assert read_capped("m.py", path, skipped) == path.read_bytes()
    assert skipped == []


@pytest.mark.parametrize("extra", [1, 1000])
def test_a_file_past_the_cap_is_skipped(tmp_path: Path, extra: int) -> None:
    path = tmp_path / "big.py"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + extra))
    skipped: list[Skipped] = []
    assert read_capped("big.py", path, skipped) is None
    assert [s.path for s in skipped] == ["big.py"] and "too large" in skipped[0].reason


@pytest.mark.parametrize("size", [10, MAX_FILE_BYTES + 5])
def test_a_file_holding_more_than_its_size_claims_is_read_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(b"y" * size)
    monkeypatch.setattr(_common.os, "fstat", lambda fd: SimpleNamespace(st_size=3))
    skipped: list[Skipped] = []
    data = read_capped("m.py", path, skipped)
    assert data == (path.read_bytes() if size <= MAX_FILE_BYTES else None)
    assert len(skipped) == (size > MAX_FILE_BYTES)
