"""Related errors: the same function, the same guard names, the same file."""

from __future__ import annotations

from errdex.explain.page import RelatedError
from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import SiteKind
from errdex.store.base import Neighbour, Store, StoredSite

MAX_RELATED = 8


def related_errors(
    store: Store, stored: StoredSite, limit: int = MAX_RELATED
) -> list[RelatedError]:
    """Other errors of the site's file, nearest in kind of relation first."""
    neighbours = store.neighbours(stored.version_id, stored.file)
    names = _guard_names(stored.site.names)
    ranked: list[tuple[int, int, Neighbour, str]] = []
    seen = {stored.id}
    for other in neighbours:
        if other.id in seen or other.kind is SiteKind.RERAISE:
            continue
        seen.add(other.id)
        if other.function == stored.site.function:
            rank, relation = 0, "same function"
        elif names and names & _guard_names(other.names):
            rank, relation = 1, "same guard"
        else:
            rank, relation = 2, "same file"
        ranked.append((rank, abs(other.line - stored.site.line), other, relation))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [
        RelatedError(
            id=other.id,
            message=other.message,
            exception=other.exception,
            relation=relation,
            file=stored.file,
            line=other.line,
        )
        for _, _, other, relation in ranked[:limit]
    ]


def _guard_names(names: tuple[str, ...]) -> set[str]:
    return {n for n in names if n not in OWN_OBJECT and ("." in n or len(n) > 3)}
