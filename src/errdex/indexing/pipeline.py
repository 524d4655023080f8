"""Indexing one version: read a source, extract (cached, in parallel), link, and store it.

Extraction takes two rounds: every file, then the files that call a raising helper of
another file, again with those calls kept (`helpercalls`).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Generator, Iterator, Mapping

import msgspec

from errdex.bugs import INTERNAL
from errdex.errors import SourceError
from errdex.extract import EXTRACTOR_VERSION
from errdex.extract.gettext_catalogs import Catalog, parse_catalog
from errdex.facts import FileFacts
from errdex.indexing.cache import FactsCache, content_key
from errdex.indexing.gcpause import cyclic_gc_paused
from errdex.indexing.helpercalls import again_key, names_to_keep
from errdex.indexing.parallel import (
    MIN_PARALLEL_FILES,
    Extracted,
    ExtractionPool,
    default_workers,
)
from errdex.indexing.report import PARTIAL_MARK, IndexReport, ProgressHook
from errdex.link import LINKER_VERSION, link_sites
from errdex.link.names import version_names
from errdex.linked_facts import IndexedSite
from errdex.sources.base import Skipped, Source
from errdex.store.base import Store, VersionStats
from errdex.store.contents import pack_outline

__all__ = ["PIPELINE_VERSION", "index_source"]

# Which extraction and linking made a version's sites: when it changes, re-indexing redoes it.
PIPELINE_VERSION = f"extract-{EXTRACTOR_VERSION}.link-{LINKER_VERSION}"
_decoder = msgspec.msgpack.Decoder(FileFacts)
_LOOKUP_CHUNK = 256  # files per cache lookup and per cache write
# From this many files, a version is written by another process while it is linked: below,
# starting that process costs more than the overlap saves.
WRITE_ASIDE_FILES = 1_000


def index_source(
    source: Source,
    store: Store,
    *,
    cache: FactsCache | None = None,
    workers: int | None = None,
    progress: ProgressHook | None = None,
    force: bool = False,
    partial: bool = False,
) -> IndexReport:
    """Index one version into the store, in a single transaction.

    A version the store already holds at the same revision, made by the same pipeline, is
    left as it is unless `force` is given. With `partial`, the source holds only some of
    the version's files: the version is stored marked so (unless the whole is held), and
    the next index of the whole replaces it.
    """
    started = time.perf_counter()
    info = source.info
    info.pipeline = PIPELINE_VERSION + (PARTIAL_MARK if partial else "")
    if not force:
        held = _held(store, info.project, info.version, info.revision, partial=partial)
        if held is not None:
            return _up_to_date(source, held, started)
    # The whole run, not only each stage's own work: between extraction batches this
    # process decodes every file's facts and keeps them, and each collection those
    # allocations trigger walks them all again (two to three seconds of a cold index of
    # vllm). Decoding makes no cycle; a batch's few are collected after it. The facts and
    # sites are let go inside the pause too: the collector, back on, would first walk every
    # object made while it was off that is still alive (three passes, a second and more
    # of CPU for vllm's millions, as the report is made and again at exit).
    with cyclic_gc_paused():
        return _index(source, store, cache or FactsCache(), workers, progress, partial, started)


def _index(
    source: Source,
    store: Store,
    cache: FactsCache,
    workers: int | None,
    progress: ProgressHook | None,
    partial: bool,
    started: float,
) -> IndexReport:
    laps = _Laps()
    extracted = _extract_version(source, cache, workers, progress, laps)
    skipped = list(source.skipped)
    skipped.extend(Skipped(f.path, f.error) for f in extracted.facts if f.error is not None)
    link_workers = workers or default_workers()
    kinds, stored = _link_and_write(source, store, extracted, laps, skipped, link_workers)
    files = len(extracted.items)
    return IndexReport(
        project=source.info.project,
        version=source.info.version,
        revision=source.info.revision,
        files=files,
        parsed=extracted.parsed,
        cached=files - extracted.parsed,
        rechecked=extracted.rechecked,
        reparsed=extracted.reparsed,
        sites=kinds.total(),
        kinds=dict(kinds),
        skipped=skipped,
        seconds=time.perf_counter() - started,
        stored=stored,
        partial=partial,
        timings=laps.timings,
    )


def _up_to_date(source: Source, held: VersionStats, started: float) -> IndexReport:
    """The report of a version the store already holds as this run would make it."""
    return IndexReport(
        project=source.info.project,
        version=source.info.version,
        revision=source.info.revision,
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


class _Laps:
    """Seconds per stage, each counted from the end of the stage before."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}
        self._clock = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = now - self._clock
        self._clock = now


class _Extracted(msgspec.Struct):
    """Every file of a version and its facts, after both rounds of extraction."""

    items: list[tuple[str, bytes]]
    facts: list[FileFacts]
    parsed: int  # files extracted in this run (the rest came from the cache)
    rechecked: int
    reparsed: int


def _extract_version(
    source: Source,
    cache: FactsCache,
    workers: int | None,
    progress: ProgressHook | None,
    laps: _Laps,
) -> _Extracted:
    """Read the source, and extract the files the cache lacks, then the second round."""
    with ExtractionPool(workers) as pool:
        items, keys, cached = _read(source, cache, pool)
        todo = [(path, data) for path, data in items if keys[path] not in cached]
        if progress:
            progress("extract", len(items) - len(todo), len(items))
        laps.lap("read")

        def advance(n: int) -> None:
            if progress:
                progress("extract", n, len(items))

        first: dict[str, bytes] = {}
        called: dict[str, bytes] = {}
        decoded = _extract(pool.run(todo, advance), keys, cache, first, called)
        facts = [decoded.get(path) or _decoder.decode(cached[keys[path]]) for path, _ in items]
        laps.lap("extract")
        facts, rechecked, reparsed = _extract_again(pool, items, keys, facts, cache, first, called)
        laps.lap("again")
    return _Extracted(
        items=items, facts=facts, parsed=len(todo), rechecked=rechecked, reparsed=reparsed
    )


def _link_and_write(
    source: Source,
    store: Store,
    extracted: _Extracted,
    laps: _Laps,
    skipped: list[Skipped],
    workers: int,
) -> tuple[Counter[str], VersionStats]:
    """Link the version's sites and write them, with its files, in one transaction; a file
    errdex fails to link is added to `skipped`. Returns the sites made, by kind.

    A large version is linked by `workers` processes, and written by another one as its
    sites are linked (the "link" lap then ends when the last site is made, the "write" lap
    is what is left of the write); a small one is linked here, then written here.
    """
    with cyclic_gc_paused():
        source.info.names = version_names(extracted.facts)
        # kept until the write's end (`let_go`), not freed while the linker is still busy
        sites: list[IndexedSite] = []
        kinds: Counter[str] = Counter()
        info = source.info
        aside = len(extracted.items) >= WRITE_ASIDE_FILES

        def linked() -> Generator[IndexedSite, None, None]:
            # Linked when the store asks for the first site: a writer's process, started
            # by then, packs the files meanwhile (`store.aside`). Linking may fork its
            # workers here; they take none of the locks the writer's feeding thread holds
            # (`link.forked`). The writer's process runs beside them (`MIN_WORKERS_BESIDE`).
            made = link_sites(
                info.project,
                extracted.facts,
                info.entry_points,
                _catalogs(source),
                skipped,
                texts=dict(extracted.items),
                workers=workers,
                beside=1 if aside else 0,
            )
            with contextlib.closing(made):  # the linking workers, when the write ends early
                for site in made:
                    sites.append(site)
                    kinds[site.site.kind.value] += 1
                    yield site
            laps.lap("link")

        def let_go() -> None:
            # The facts and sites, which nothing reads once the last site is made, are freed
            # while the writer's process finishes (vllm: millions of objects, 0.15 s of this
            # process's CPU that came after the write).
            extracted.facts.clear()
            sites.clear()

        # Every file is offered: the store keeps those a page may quote (a site's own, its
        # variants', its exception's definition).
        written = dict(extracted.items)
        # A first answer's subset extracts some files cut to the definitions it needs
        # (`match/needed_text.py`); the store keeps them as they are written.
        as_written = getattr(source, "as_written", {})
        written.update(as_written)
        # each file's outline, but of a file written otherwise than it was extracted
        source.info.outlines = {
            f.path: pack_outline(f.outline)
            for f in extracted.facts
            if f.outline and f.path not in as_written
        }
        with contextlib.closing(linked()) as linking:
            if aside:
                stored = store.write_version_aside(source.info, linking, written, let_go)
            else:
                stored = store.write_version(source.info, list(linking), written)
        laps.lap("write")
    return kinds, stored


def _catalogs(source: Source) -> list[Catalog]:
    """The gettext catalogs the source ships (a source that reads none yields none); a
    catalog that cannot be read is left out, as a file that does not parse."""
    read = getattr(source, "catalogs", None)
    found: list[Catalog] = []
    if read is None:
        return found
    try:
        for file in read():
            catalog = parse_catalog(file.path, file.data)
            if catalog is not None:
                found.append(catalog)
    except SourceError:
        pass  # the archive broke while read again: its Python files were read whole
    return found


def _read(
    source: Source, cache: FactsCache, pool: ExtractionPool
) -> tuple[list[tuple[str, bytes]], dict[str, str], dict[str, bytes]]:
    """Every file of the source, its cache key, and the facts the cache already holds.

    The cache is asked a chunk of files at a time, so that once enough files are missing
    the worker pool starts while the rest of the source is still being read, and once it
    is up, the files missing so far are handed to it (`ExtractionPool.feed`): reading
    vllm's wheel is half a second of this process, which the workers need not wait for.
    """
    items: list[tuple[str, bytes]] = []
    keys: dict[str, str] = {}
    cached: dict[str, bytes] = {}
    chunk: list[str] = []
    missing: list[tuple[str, bytes]] = []
    for file in source.files():
        items.append((file.path, file.data))
        keys[file.path] = content_key(file.path, file.data)
        chunk.append(keys[file.path])
        if len(chunk) >= _LOOKUP_CHUNK:
            _look_up(cache, chunk, cached)
            missing.extend(item for item in items[-_LOOKUP_CHUNK:] if keys[item[0]] not in cached)
            if len(missing) >= MIN_PARALLEL_FILES:
                pool.start()
            pool.feed(missing)
    _look_up(cache, chunk, cached)
    return items, keys, cached


def _look_up(cache: FactsCache, chunk: list[str], cached: dict[str, bytes]) -> None:
    """Add what the cache holds for the chunk's keys to `cached`; empty the chunk."""
    cached.update(cache.get_many(chunk))
    chunk.clear()


def _extract(
    results: Iterator[Extracted],
    keys: Mapping[str, str],
    cache: FactsCache,
    first: dict[str, bytes] | None = None,
    called: dict[str, bytes] | None = None,
) -> dict[str, FileFacts | None]:
    """Store and decode each worker result as it arrives (empty bytes decode to None); add
    to `first` the facts a second extraction may start from (`extract_first_hidden`), as sent: the
    second round hands them on as they are, rather than encoding them again (vllm: 36 MB
    of its 658 files, 0.07 s), and lets them go once it ends; add to `called` the names
    each file calls where its skeleton blanked, as the worker found them (`called_names`),
    for the second round to choose its files by.

    The main process has nothing else to do while the workers parse, so the cache writes
    and the decoding happen then rather than after.
    """
    decoded: dict[str, FileFacts | None] = {}
    unsaved: dict[str, bytes] = {}
    for path, blob, may_start, names in results:
        if may_start and first is not None:
            first[path] = blob
        if names is not None and called is not None:
            called[path] = names
        facts = decoded[path] = _decoder.decode(blob) if blob else None
        if facts is not None and facts.error is not None and facts.error.startswith(INTERNAL):
            continue  # errdex's own bug: not kept, so that a fixed errdex reads it again
        unsaved[keys[path]] = blob
        if len(unsaved) >= _LOOKUP_CHUNK:
            cache.put_many(unsaved)
            unsaved = {}
    if unsaved:
        cache.put_many(unsaved)
    return decoded


def _extract_again(
    pool: ExtractionPool,
    items: list[tuple[str, bytes]],
    keys: dict[str, str],
    facts: list[FileFacts],
    cache: FactsCache,
    first: dict[str, bytes],
    called: dict[str, bytes],
) -> tuple[list[FileFacts], int, int]:
    """The second round (`helpercalls`): the facts with those of the files extracted again
    in place of their first ones; how many files were looked at again in this run, and how
    many of them were parsed again.

    A second extraction replaces the first, never adds to it, so the linker sees each call
    once. Empty bytes, cached like any facts, say that the first extraction stands. The
    files of `first` (extracted in this run from their skeletons) are sent with their first
    facts, which the second extraction keeps for the statements it leaves alone. `called`
    holds the names the files extracted in this run call (`_extract`).
    """
    wanted = names_to_keep(items, facts, called)
    if not wanted:
        return facts, 0, 0
    again_keys = {path: again_key(keys[path], names) for path, names in wanted.items()}
    blobs = cache.get_many(again_keys.values())
    found = {path: blobs[key] for path, key in again_keys.items() if key in blobs}
    todo = [
        (path, data, wanted[path], first.get(path))
        for path, data in items
        if path in wanted and path not in found
    ]
    redone = _extract(pool.run_again(todo), again_keys, cache)
    reparsed = sum(1 for changed in redone.values() if changed is not None)
    redone.update((path, _decoder.decode(blob)) for path, blob in found.items() if blob)
    return [redone.get(f.path) or f for f in facts], len(todo), reparsed


def _held(
    store: Store, project: str, label: str, revision: str, *, partial: bool = False
) -> VersionStats | None:
    """The stats of the stored version when it is this revision, whole, made by this
    pipeline. A partial version is never enough: indexing again completes it."""
    if not store.has_version(project, label, revision):
        return None
    for record in store.versions(project):
        if record.label == label and record.stats.pipeline == PIPELINE_VERSION:
            return record.stats
    return None
