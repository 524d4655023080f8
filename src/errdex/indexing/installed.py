"""Index, on the spot, the installed distributions a traceback's frames point into."""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Callable, Iterable

from packaging.utils import canonicalize_name

from errdex.errors import SourceError
from errdex.indexing import IndexReport, index_source, is_partial
from errdex.sources import installed_source
from errdex.sources.base import Source
from errdex.store.base import Store

_SITE_PACKAGES = re.compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_][\w]*)")


def distributions_behind(paths: Iterable[str], modules: Iterable[str] = ()) -> list[str]:
    """Installed distributions that own the top-level modules these paths live in, and
    these top-level modules (`pygments` of `pygments.util.ClassNotFound`)."""
    owners = importlib.metadata.packages_distributions()
    found: list[str] = []
    tops = [m.group(1) for m in map(_SITE_PACKAGES.search, paths) if m is not None]
    for top in [*tops, *modules]:
        for dist in owners.get(top, []):
            if dist not in found:
                found.append(dist)
    return found


def index_missing(
    store: Store,
    paths: Iterable[str],
    *,
    announce: Callable[[str], None] | None = None,
    narrow: Callable[[Source], Source | None] | None = None,
    modules: Iterable[str] = (),
    names: Iterable[str] = (),
) -> list[IndexReport]:
    """Index each installed distribution behind `paths` (or owning the top-level `modules`,
    or named in `names`) that the store does not hold whole.

    With `narrow`, a distribution not held at all is first indexed from the subset of its
    files `narrow` picks (a report marked `partial`; `complete` indexes the rest); one held
    partly is completed now.
    """
    reports: list[IndexReport] = []
    wanted = distributions_behind(paths, modules)
    wanted += [
        n for n in names if canonicalize_name(n) not in {canonicalize_name(w) for w in wanted}
    ]
    for dist in wanted:
        try:
            source = installed_source(dist)
        except SourceError:
            continue  # not installed here after all: the paste came from another machine
        held = _held_pipeline(store, source)
        if held is not None and not is_partial(held):
            continue
        subset = narrow(source) if narrow is not None and held is None else None
        if announce is not None:
            what = "completing" if held is not None else "indexing"
            part = f" (first the {subset_size(subset)} files this paste needs)" if subset else ""
            announce(f"{what} installed {dist} {source.info.version}{part}")
        if subset is not None:
            reports.append(index_source(subset, store, partial=True))
        else:
            reports.append(index_source(source, store))
    return reports


def complete(store: Store, reports: Iterable[IndexReport]) -> list[IndexReport]:
    """Index whole the installed distributions that `reports` indexed partly."""
    done = []
    for report in reports:
        if report.partial:
            done.append(index_source(installed_source(report.project), store))
    return done


def subset_size(source: Source | None) -> int:
    return len(getattr(source, "files_kept", ()))


def _held_pipeline(store: Store, source: Source) -> str | None:
    """The pipeline of the stored version of this installed distribution, if one is held."""
    info = source.info
    for project in store.projects():
        if canonicalize_name(project.name) != canonicalize_name(info.project):
            continue
        for record in store.versions(project.name):
            if record.label == info.version:
                return record.stats.pipeline
        return "other version"  # the project is held at another version: as before, leave it
    return None
