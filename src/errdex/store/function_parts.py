"""What the sites of one function share (its callers), stored once per version and put back
into each site as it is read.

The linker finds a function's callers once and gives every site in it the same record
(vllm 0.33.0: 22,500 sites in 10,400 functions; the callers were 16 of the 53 MB of its
stored sites). A site's `data` keeps the rest, and the number of its function's part in
the version (`sites.parts`, a row of `function_parts`); a site stored by an older errdex
keeps its callers in `data` and has no part.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

import msgspec

from errdex.linked_facts import CallerLink, IndexedSite
from errdex.store.written import SiteRow

ENCODER = msgspec.msgpack.Encoder()


class FunctionParts(msgspec.Struct, frozen=True, gc=False):
    """The fields of an `IndexedSite` that are the same for every site of its function."""

    caller_links: tuple[CallerLink, ...] = ()
    callers: tuple[str, ...] = ()


_DECODER = msgspec.msgpack.Decoder(FunctionParts)


class SplitChunk(NamedTuple):
    """A chunk of a version's sites as the store writes them: the parts not written
    before (number, encoding); the sites without their parts, with the number of each
    one's part (None: it has none); and the sites' encodings, when made already (a site
    that comes with its encoding may be one decoded in part: `written.WrittenSite`)."""

    parts: list[tuple[int, bytes]]
    sites: Sequence[SiteRow]
    numbers: list[int | None]
    encoded: list[bytes] | None = None


class PartsSplitter:
    """Takes the parts out of one version's sites as they go by, numbering each distinct
    part once (from 1) in the order it first comes."""

    def __init__(self) -> None:
        # The linker gives a function's sites one `caller_links` tuple: known by identity
        # (the tuple is held, so its id is not reused), with the part made of it.
        self._known: dict[int, tuple[int, tuple[CallerLink, ...], tuple[str, ...]]] = {}
        self._count = 0  # parts numbered so far

    def chunk(self, sites: list[IndexedSite]) -> SplitChunk:
        """The chunk's sites split, their new parts encoded.

        One loop, no call a site: the parent of a version's writer (`aside`) does this for
        every site it makes, and the encoding it saves is little more than a loop's work."""
        parts: list[tuple[int, bytes]] = []
        kept: list[IndexedSite] = []
        numbers: list[int | None] = []
        known, replace = self._known, msgspec.structs.replace
        for site in sites:
            links, callers = site.caller_links, site.callers
            if not links and not callers:
                kept.append(site)
                numbers.append(None)
                continue
            entry = known.get(id(links))
            if entry is None or entry[2] != callers:
                self._count += 1
                entry = known[id(links)] = (self._count, links, callers)
                parts.append((self._count, ENCODER.encode(FunctionParts(links, callers))))
            kept.append(replace(site, caller_links=(), callers=()))
            numbers.append(entry[0])
        return SplitChunk(parts, kept, numbers)


@functools.lru_cache(maxsize=1024)
def decode_parts(data: bytes) -> FunctionParts:
    """A part read back (the sites of a function read together decode it once)."""
    return _DECODER.decode(data)


def joined(fields: dict[str, Any], data: bytes | None) -> dict[str, Any]:
    """A site's fields (`msgspec.structs.asdict`) with its part put back, when it has one."""
    if data is not None:
        parts = decode_parts(bytes(data))
        fields["caller_links"] = parts.caller_links
        fields["callers"] = parts.callers
    return fields


def split_chunks(sites: Iterable[IndexedSite], size: int) -> Iterator[SplitChunk]:
    """A version's sites, `size` at a time, with the parts of their functions taken out."""
    splitter = PartsSplitter()
    iterator = iter(sites)
    while chunk := list(itertools.islice(iterator, size)):
        yield splitter.chunk(chunk)
