"""File contents as the stores keep them: named by sha256, zlib-compressed, decoded as
Python would decode them."""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import tokenize
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence

import msgspec

ZLIB_LEVEL = 1  # on Python sources: 3.3x smaller at less than half the time of level 6


def content_hashes(files: Mapping[str, bytes]) -> dict[str, str]:
    """Each path's content hash (sha256, hex), the key a content is stored once under."""
    return {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}


def compress(contents: list[bytes]) -> list[bytes]:
    """zlib-compress each content; zlib lets go of the GIL, so a thread per core helps."""
    workers = min(os.cpu_count() or 1, 8)
    if workers == 1 or len(contents) < 16:
        return _compress_all(contents)
    # imported here: start-up of lookup (a few files are compressed in this thread)
    from concurrent.futures import ThreadPoolExecutor

    batches = [contents[start::workers] for start in range(workers)]
    with ThreadPoolExecutor(workers) as pool:
        packed = list(pool.map(_compress_all, batches))
    # Interleave back: item i went to batch i % workers at position i // workers.
    return [packed[i % workers][i // workers] for i in range(len(contents))]


def _compress_all(contents: list[bytes]) -> list[bytes]:
    return [zlib.compress(data, ZLIB_LEVEL) for data in contents]


class PackedFiles:
    """A version's files, each one's hash and compressed content worked out once: when a
    write first asks for them, or before (`pack_ahead`), by a writer with time to spare."""

    def __init__(self, files: Mapping[str, bytes]) -> None:
        self.files = files
        self._hashes: dict[str, str] = {}
        self._packed: dict[str, bytes] = {}

    def hashes(self, paths: Sequence[str]) -> dict[str, str]:
        """Each path's content hash (`content_hashes`)."""
        todo = {path: self.files[path] for path in paths if path not in self._hashes}
        self._hashes.update(content_hashes(todo))
        return {path: self._hashes[path] for path in paths}

    def packed(self, paths: Sequence[str]) -> list[bytes]:
        """Each path's compressed content (`compress`: those not packed yet)."""
        todo = [path for path in dict.fromkeys(paths) if path not in self._packed]
        if todo:
            self._packed.update(zip(todo, compress([self.files[p] for p in todo]), strict=True))
        return [self._packed[path] for path in paths]

    def pack_ahead(self, stop: Callable[[], bool]) -> None:
        """Hash and compress the files one at a time, in this thread, until `stop()`: the
        write then finds packed each file a site refers to that it got to."""
        for path in self.files:
            if stop():
                return
            self.hashes([path])
            self.packed([path])


def readable_source(data: bytes) -> str:
    """A stored file as text to show: its BOM or coding cookie, else UTF-8; unlike the
    extractor's `decode_source`, never refuses, since a page only quotes it."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding, errors="replace")
    except (SyntaxError, LookupError):
        return data.decode("utf-8", errors="replace")


def stored_text(packed: bytes) -> str:
    """A stored (compressed) file as text."""
    return readable_source(zlib.decompress(packed))


def pack_outline(starts: Sequence[int]) -> bytes:
    """A file's top-level statement starts (`extract.module.top_starts`) as stored: the
    gaps between them, msgpack (one byte each below 128)."""
    return msgspec.msgpack.encode([b - a for a, b in zip((0, *starts), starts, strict=False)])


def unpack_outline(data: bytes | None) -> tuple[int, ...] | None:
    """The starts `pack_outline` packed; None for none stored (an older errdex wrote the
    content) or unreadable."""
    if not data:
        return None
    try:
        gaps = msgspec.msgpack.decode(bytes(data), type=list[int])
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return tuple(itertools.accumulate(gaps))


def pack_names(names: Iterable[str]) -> bytes:
    """The names as the store keeps them: newline-joined, compressed."""
    return zlib.compress("\n".join(names).encode("utf-8", "surrogatepass"), 6)


def unpack_names(data: bytes | None) -> frozenset[str]:
    if not data:
        return frozenset()
    try:
        text = zlib.decompress(bytes(data)).decode("utf-8", "surrogatepass")
    except (zlib.error, UnicodeDecodeError):
        return frozenset()
    return frozenset(text.split("\n"))
