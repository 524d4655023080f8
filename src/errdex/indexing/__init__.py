"""Indexing: read a source, extract (cached, in parallel), link, and store one version."""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import msgspec

from errdex.extract import EXTRACTOR_VERSION
from errdex.facts import FileFacts
from errdex.indexing.cache import FactsCache, content_key
from errdex.indexing.parallel import extract_many
from errdex.link import LINKER_VERSION, link_version
from errdex.sources.base import Skipped, Source
from errdex.store.base import Store, VersionStats

__all__ = ["PIPELINE_VERSION", "IndexReport", "index_source"]

# Which extraction and linking made a version's sites: when it changes, re-indexing redoes it.
PIPELINE_VERSION = f"extract-{EXTRACTOR_VERSION}.link-{LINKER_VERSION}"

_decoder = msgspec.msgpack.Decoder(FileFacts)


class IndexReport(msgspec.Struct, kw_only=True):
    """What one version's indexing did: counts, reuse of the cache, what was skipped."""

    project: str
    version: str
    revision: str
    files: int
    parsed: int  # files extracted in this run
    cached: int  # files whose facts came from the cache
    sites: int
    kinds: dict[str, int]
    skipped: list[Skipped]
    seconds: float
    stored: VersionStats | None = None
    up_to_date: bool = False  # the store already held this revision, made the same way
    timings: dict[str, float] = {}  # seconds per stage: read, extract, link, write


ProgressHook = Callable[[str, int, int], None]  # (stage, advance, total)


def index_source(
    source: Source,
    store: Store,
    *,
    cache: FactsCache | None = None,
    workers: int | None = None,
    progress: ProgressHook | None = None,
    force: bool = False,
) -> IndexReport:
    """Index one version into the store, in a single transaction.

    A version the store already holds at the same revision, made by the same pipeline, is
    left as it is unless `force` is given.
    """
    started = time.perf_counter()
    info = source.info
    info.pipeline = PIPELINE_VERSION
    if not force:
        held = _held(store, info.project, info.version, info.revision)
        if held is not None:
            return IndexReport(
                project=info.project,
                version=info.version,
                revision=info.revision,
                files=0,
                parsed=0,
                cached=0,
                sites=held.sites,
                kinds=held.kinds,
                skipped=[],
                seconds=time.perf_counter() - started,
                stored=held,
                up_to_date=True,
            )
    cache = cache or FactsCache()
    timings: dict[str, float] = {}
    clock = time.perf_counter()
    items = [(f.path, f.data) for f in source.files()]
    keys = {path: content_key(path, data) for path, data in items}
    cached = cache.get_many(keys.values())
    todo = [(path, data) for path, data in items if keys[path] not in cached]
    if progress:
        progress("extract", len(items) - len(todo), len(items))
    timings["read"], clock = time.perf_counter() - clock, time.perf_counter()

    def advance(n: int) -> None:
        if progress:
            progress("extract", n, len(items))

    fresh: dict[str, bytes] = {}
    for path, blob in extract_many(todo, workers=workers, progress=advance):
        fresh[keys[path]] = blob
    if fresh:
        cache.put_many(fresh)
    known = {**cached, **fresh}
    facts = [_decoder.decode(known[keys[path]]) for path, _ in items]
    timings["extract"], clock = time.perf_counter() - clock, time.perf_counter()

    skipped = list(source.skipped)
    skipped.extend(Skipped(f.path, f.error) for f in facts if f.error is not None)
    with _without_cyclic_gc():
        sites = link_version(source.info.project, facts)
        timings["link"], clock = time.perf_counter() - clock, time.perf_counter()
        holding = {s.file for s in sites}
        files = {path: data for path, data in items if path in holding}
        stored = store.write_version(source.info, sites, files)
        timings["write"] = time.perf_counter() - clock
    kinds = Counter(str(s.site.kind) for s in sites)
    return IndexReport(
        project=source.info.project,
        version=source.info.version,
        revision=source.info.revision,
        files=len(items),
        parsed=len(todo),
        cached=len(items) - len(todo),
        sites=len(sites),
        kinds=dict(kinds),
        skipped=skipped,
        seconds=time.perf_counter() - started,
        stored=stored,
        timings=timings,
    )


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector, restoring its state after.

    Linking and writing make millions of small objects while the facts of every file are
    alive: each collection the allocations trigger walks that whole heap again, for
    almost nothing (the work makes few reference cycles; reference counting frees the rest).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _held(store: Store, project: str, label: str, revision: str) -> VersionStats | None:
    """The stats of the stored version when it is this revision made by this pipeline."""
    if not store.has_version(project, label, revision):
        return None
    for record in store.versions(project):
        if record.label == label and record.stats.pipeline == PIPELINE_VERSION:
            return record.stats
    return None
