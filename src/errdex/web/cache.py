"""The response cache: built answers kept in memory, least recently used first out.

One cache per server process, shared by its threads, bounded by the bytes it holds. A key
names everything an answer is made from (its route and parameters, the store's generation
and errdex's release: the answer's ETag), so an entry never goes stale: after a write the
next request asks under a new key, and the old entries age out.
"""

from __future__ import annotations

import os
import threading
import zlib
from collections import OrderedDict
from typing import NamedTuple

from errdex.errors import InputError

ENV_CACHE_MB = "ERRDEX_WEB_CACHE_MB"
DEFAULT_MB = 64
MB = 1 << 20
# What an entry costs beyond its body and key: the record, the dict slot, the strings.
ENTRY_OVERHEAD = 256
# An answer bigger than this share of the cache is not kept: one search that echoes a
# megabyte of paste would push out a great many pages.
LARGEST_SHARE = 16


# What GZipMiddleware is given (app.py): a kept answer is gzipped once, as it would be.
GZIP_LEVEL = 6
GZIP_MINIMUM = 512


class CachedBody(NamedTuple):
    """A built answer: its body, media type and, once a client taking gzip has asked for
    it, the body gzipped (the headers are made again per request)."""

    body: bytes
    media_type: str
    gzipped: bytes | None = None

    @property
    def packable(self) -> bool:
        """Whether it is big enough to be worth gzipping and not gzipped yet."""
        return self.gzipped is None and len(self.body) >= GZIP_MINIMUM

    def packed(self) -> CachedBody:
        """The same answer with its body gzipped: when a client first takes gzip, not when
        it is built (a client that does not take it, curl or a script, never waits on it)."""
        if not self.packable:
            return self
        # zlib's gzip stream, as the middleware makes it: the same bytes either way.
        packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        return self._replace(gzipped=packer.compress(self.body) + packer.flush())


class ResponseCache:
    """A thread-safe LRU of `CachedBody`s holding at most `limit` bytes (0: keeps nothing)."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        self.largest = self.limit // LARGEST_SHARE
        self.size = 0  # bytes held, by `cost`
        self._entries: OrderedDict[str, CachedBody] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @staticmethod
    def cost(key: str, entry: CachedBody) -> int:
        packed = len(entry.gzipped) if entry.gzipped is not None else 0
        return len(key) + len(entry.body) + packed + len(entry.media_type) + ENTRY_OVERHEAD

    def get(self, key: str) -> CachedBody | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: str, entry: CachedBody) -> bool:
        """Keep `entry` under `key`, dropping the least recently used to make room; False
        (and nothing kept) when it is bigger than an entry may be."""
        cost = self.cost(key, entry)
        if cost > self.largest:
            return False
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:  # two threads built the same answer: keep one
                self.size -= self.cost(key, old)
            self._entries[key] = entry
            self.size += cost
            while self.size > self.limit:
                dropped_key, dropped = self._entries.popitem(last=False)
                self.size -= self.cost(dropped_key, dropped)
        return True

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.size = 0


def cache_limit(megabytes: int | None = None) -> int:
    """The cache's size in bytes: `megabytes` (MiB) when given, else `ERRDEX_WEB_CACHE_MB`,
    else 64 MiB; 0 turns the cache off."""
    if megabytes is None:
        raw = os.environ.get(ENV_CACHE_MB, "").strip()
        if not raw:
            return DEFAULT_MB * MB
        if not raw.isdigit():
            raise InputError(
                f"{ENV_CACHE_MB} must be a whole number of MiB (0 turns the cache off), not {raw!r}"
            )
        megabytes = int(raw)
    if megabytes < 0:
        raise InputError(f"the response cache cannot hold {megabytes} MiB")
    return megabytes * MB
