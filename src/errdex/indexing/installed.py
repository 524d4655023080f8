"""Index, on the spot, the installed distributions a traceback's frames point into."""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Callable, Iterable

from errdex.errors import SourceError
from errdex.indexing import IndexReport, index_source
from errdex.sources import installed_source
from errdex.store.base import Store

_SITE_PACKAGES = re.compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_][\w]*)")


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def distributions_behind(paths: Iterable[str]) -> list[str]:
    """Installed distributions that own the top-level modules these paths live in."""
    owners = importlib.metadata.packages_distributions()
    found: list[str] = []
    for path in paths:
        match = _SITE_PACKAGES.search(path)
        if match is None:
            continue
        for dist in owners.get(match.group(1), []):
            if dist not in found:
                found.append(dist)
    return found


def index_missing(
    store: Store,
    paths: Iterable[str],
    *,
    announce: Callable[[str], None] | None = None,
) -> list[IndexReport]:
    """Index each installed distribution behind `paths` that the store does not hold yet."""
    have = {_normalized(p.name) for p in store.projects()}
    reports: list[IndexReport] = []
    for dist in distributions_behind(paths):
        if _normalized(dist) in have:
            continue
        try:
            source = installed_source(dist)
        except SourceError:
            continue  # not installed here after all: the paste came from another machine
        if announce is not None:
            announce(f"indexing installed {dist} {source.info.version} (first lookup into it)")
        reports.append(index_source(source, store))
        have.add(_normalized(dist))
    return reports
