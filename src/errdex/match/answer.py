"""A paste answered: its evidence read, the installed packages its frames name indexed on the
spot, its sites ranked. What every face that takes a paste calls."""

from __future__ import annotations

from collections.abc import Callable

from errdex.errors import NotFoundError
from errdex.indexing.installed import index_missing
from errdex.match.lookup import rank
from errdex.match.paste import parse_paste
from errdex.match.results import LookupResult
from errdex.store.base import Store


def answer_paste(
    store: Store,
    paste: str,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
    auto_index: bool = True,
    announce: Callable[[str], None] | None = None,
) -> LookupResult:
    """The sites that raised what `paste` shows, best first.

    Raises `NotFoundError` when the store holds nothing to search.
    """
    evidence = parse_paste(paste)
    if auto_index:
        paths = [f.path for e in evidence.errors for f in e.frames]
        index_missing(store, paths, announce=announce)
    if not store.projects():
        raise NotFoundError("the database is empty: index something first: errdex index SOURCE")
    return rank(store, evidence, project=project, version=version, limit=limit)
