"""Index, on the spot, the installed distributions a traceback's frames point into."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from errdex.errors import SourceError
from errdex.indexing import IndexReport
from errdex.indexing.on_demand import Narrow, held_pipeline, index_wanted
from errdex.lazy_re import lazy_compile
from errdex.sources import installed_source
from errdex.sources.base import canonical_name
from errdex.sources.dist_info import distribution
from errdex.store.base import Store

_SITE_PACKAGES = lazy_compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_][\w]*)")


def distributions_behind(paths: Iterable[str], modules: Iterable[str] = ()) -> list[str]:
    """Installed distributions that own the top-level modules these paths live in, and
    these top-level modules (`pygments` of `pygments.util.ClassNotFound`)."""
    tops = [m.group(1) for m in map(_SITE_PACKAGES.search, paths) if m is not None]
    found: list[str] = []
    owners: Mapping[str, list[str]] | None = None
    for top in dict.fromkeys([*tops, *modules]):
        named = _named_after(top)
        if named is not None:
            owned = [named]
        elif not _importable(top):
            # Not installed here at all (a frame of the user's own code, or of a package
            # of their environment that this one lacks): no distribution here ships it.
            owned = []
        else:
            # Reading every distribution's file list takes a good part of a second: only
            # for a module installed here that no distribution of its own name ships.
            import importlib.metadata

            owners = owners if owners is not None else importlib.metadata.packages_distributions()
            owned = owners.get(top, [])
        for dist in owned:
            if dist not in found:
                found.append(dist)
    return found


def _importable(top: str) -> bool:
    """Whether the top-level module `top` could be imported here, found as `import` finds
    it (the path's folders, zips, an editable install's finder) without importing it."""
    import importlib.util

    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return True  # a finder that fails to tell: read the distributions' file lists


def _named_after(top: str) -> str | None:
    """The installed distribution named as the top-level module `top` is (most are), when it
    ships that module; found by name, without reading every distribution's files."""
    dist = distribution(top)
    if dist is None:
        return None
    listed = dist.read_text("top_level.txt")
    if listed is not None:
        ships = top in listed.split()
    else:
        record = dist.read_text("RECORD") or ""
        ships = f"\n{top}/" in f"\n{record}" or f"\n{top}.py," in f"\n{record}"
    name = dist.metadata["Name"] if ships else None
    return str(name) if name else None


def index_missing(
    store: Store,
    paths: Iterable[str],
    *,
    announce: Callable[[str], None] | None = None,
    narrow: Narrow | None = None,
    modules: Iterable[str] = (),
    names: Iterable[str] = (),
) -> list[IndexReport]:
    """Index each installed distribution behind `paths` (or owning the top-level `modules`,
    or named in `names`) that the store does not hold whole.

    With `narrow`, a distribution not held at all is first indexed from the subset of its
    files `narrow` picks (a report marked `partial`; `complete` indexes the rest); one held
    partly is completed now. A distribution held at another version is left as it is.
    """
    reports: list[IndexReport] = []
    wanted = distributions_behind(paths, modules)
    wanted += [n for n in names if canonical_name(n) not in {canonical_name(w) for w in wanted}]
    for dist in wanted:
        try:
            source = installed_source(dist)
        except SourceError:
            continue  # not installed here after all: the paste came from another machine
        if held_pipeline(store, source) == "other version":
            continue
        report = index_wanted(store, source, what="installed", narrow=narrow, announce=announce)
        if report is not None:
            reports.append(report)
    return reports
