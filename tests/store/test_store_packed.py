"""`PackedFiles`: each file's hash and compressed content, worked out once, ahead of a
write (`pack_ahead`, as a version's writer process does while the sites are linked) or
when the write asks."""

from __future__ import annotations

import zlib

import pytest

from errdex.store import contents
from errdex.store.contents import ZLIB_LEVEL, PackedFiles, content_hashes

FILES = {
    "pkg/a.py": b"def a():\n    raise ValueError('a')\n",
    "pkg/b.py": b"def b():\n    raise KeyError('b')\n",
    "pkg/c.py": b"X = 1\n",
}


def test_a_file_is_packed_as_compress_packs_it_and_hashed_as_content_hashes() -> None:
    packed = PackedFiles(FILES)
    paths = ["pkg/c.py", "pkg/a.py"]
    assert packed.packed(paths) == [zlib.compress(FILES[p], ZLIB_LEVEL) for p in paths]
    assert packed.hashes(paths) == content_hashes({p: FILES[p] for p in paths})


def test_packing_ahead_stops_when_told_and_nothing_is_packed_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    packed = PackedFiles(FILES)
    compressed: list[bytes] = []
    real = contents.compress

    def counted(items: list[bytes]) -> list[bytes]:
        compressed.extend(items)
        return real(items)

    monkeypatch.setattr(contents, "compress", counted)
    asked: list[int] = []

    def stop() -> bool:  # the first site comes once two files are packed
        asked.append(1)
        return len(asked) > 2

    packed.pack_ahead(stop)
    assert compressed == [FILES["pkg/a.py"], FILES["pkg/b.py"]]
    # the write asks for every file: only the one not packed ahead is compressed now
    assert packed.packed(list(FILES)) == [zlib.compress(d, ZLIB_LEVEL) for d in FILES.values()]
    assert compressed == list(FILES.values())
    assert packed.hashes(list(FILES)) == content_hashes(FILES)


def test_packing_ahead_goes_through_every_file_when_not_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    packed = PackedFiles(FILES)
    packed.pack_ahead(lambda: False)
    monkeypatch.setattr(contents, "compress", lambda items: pytest.fail("packed again"))
    assert packed.packed(list(FILES)) == [zlib.compress(d, ZLIB_LEVEL) for d in FILES.values()]
