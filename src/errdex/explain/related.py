"""Related errors: the same function, the same guard names, the same file."""

from __future__ import annotations

from errdex.explain.page import RelatedError
from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import SiteKind
from errdex.store.base import Store, StoredSite

MAX_RELATED = 8


def related_errors(
    store: Store, stored: StoredSite, limit: int = MAX_RELATED
) -> list[RelatedError]:
    """Other errors of the site's file, nearest in kind of relation first."""
    neighbours = store.list_sites(stored.project, stored.version, stored.file)
    names = _guard_names(stored)
    ranked: list[tuple[int, int, StoredSite, str]] = []
    seen = {stored.id}
    for other in neighbours:
        if other.id in seen or other.site.kind is SiteKind.RERAISE:
            continue
        seen.add(other.id)
        if other.site.function == stored.site.function:
            rank, relation = 0, "same function"
        elif names and names & _guard_names(other):
            rank, relation = 1, "same guard"
        else:
            rank, relation = 2, "same file"
        ranked.append((rank, abs(other.site.line - stored.site.line), other, relation))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [_related(other, relation) for _, _, other, relation in ranked[:limit]]


def _guard_names(stored: StoredSite) -> set[str]:
    return {n for n in stored.site.names if n not in OWN_OBJECT and ("." in n or len(n) > 3)}


def _related(other: StoredSite, relation: str) -> RelatedError:
    site = other.site
    exception = other.exception.name if other.exception else site.exception
    return RelatedError(
        id=other.id,
        message=site.message.text if site.message is not None else None,
        exception=exception,
        relation=relation,
        file=other.file,
        line=site.line,
    )
