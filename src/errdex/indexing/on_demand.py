"""Index, on the spot, the versions a lookup needs: first (when asked) only the files the
paste needs, marked partial, and whole later (`complete`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from errdex.indexing import IndexReport, is_partial
from errdex.sources.base import Source, canonical_name
from errdex.store.base import Store

Narrow = Callable[[Source], Source | None]
SMALL_SUBSET_BYTES = 1_500_000


def index_wanted(
    store: Store,
    source: Source,
    *,
    what: str,
    narrow: Narrow | None = None,
    announce: Callable[[str], None] | None = None,
) -> IndexReport | None:
    """Index `source` unless the store holds it whole (None then); with `narrow`, a version
    not held at all is indexed from the subset `narrow` picks first (a report marked
    `partial`), and one held partly is completed now. `what` says what it is, for `announce`
    (`installed`)."""
    held = held_pipeline(store, source)
    if held is not None and not is_partial(held):
        return None
    # Imported only to index: a lookup into what is held need not load the pipeline.
    from errdex.indexing import index_source

    subset = narrow(source) if narrow is not None and held is None else None
    if announce is not None:
        verb = "completing" if held is not None else "indexing"
        name = f"{what} {source.info.project} {source.info.version}".strip()
        part = ""
        if subset is not None:
            size = subset_size(subset)
            part = (
                f" (first the {size} files this paste needs)"
                if size
                else " (after answering: no file of it holds this paste's text)"
            )
        announce(f"{verb} {name}{part}")
    if subset is not None:
        return index_subset(store, subset)
    return index_source(source, store)


def index_subset(store: Store, subset: Source) -> IndexReport:
    """Index some files of a version, marked partial (replacing a partial one held)."""
    from errdex.indexing import index_source
    from errdex.indexing.cache import FactsCache

    # A subset small in bytes (its files cut to what the paste needs) extracts in less
    # time than starting worker processes takes.
    small = sum(len(f.data) for f in subset.files()) <= SMALL_SUBSET_BYTES
    # Its facts are kept in memory: they are mostly of files cut to what this paste needs,
    # which no later index reads, and a new cache file costs six disk syncs (~20 ms on a
    # plain disk) before the answer; the whole index right after makes it. A subset made
    # after another (`SubsetSource.fuller`) shares the other's.
    cache = getattr(subset, "facts", None) or FactsCache.for_this_run()
    if hasattr(subset, "facts"):
        subset.facts = cache
    return index_source(subset, store, cache=cache, partial=True, workers=1 if small else None)


def complete(store: Store, reports: Iterable[IndexReport]) -> list[IndexReport]:
    """Index whole the versions that `reports` indexed partly, from the sources they were
    read from (an installed distribution, a release in the download cache)."""
    partial = [report for report in reports if report.partial]
    if not partial:
        return []
    from errdex.indexing import index_source
    from errdex.sources import open_source

    done = []
    for report in partial:
        for record in store.versions(report.project):
            if record.label == report.version and record.revision == report.revision:
                done.append(index_source(open_source(record.source), store))
                break
    return done


def subset_size(source: Source | None) -> int:
    return len(getattr(source, "files_kept", ()))


def held_pipeline(store: Store, source: Source) -> str | None:
    """The pipeline of the stored version of this source's project and label, if one is held;
    "other version" when only another version of the project is."""
    info = source.info
    for project in store.projects():
        if canonical_name(project.name) != canonical_name(info.project):
            continue
        for record in store.versions(project.name):
            if record.label == info.version:
                return record.stats.pipeline
        return "other version"
    return None
