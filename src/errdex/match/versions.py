"""The last ranking step: which version each match lands on, and what its error became.

A store holding several versions of a project holds one error under each of them; ranking
scored one of those rows. This step puts each match on the version the paste points at,
says for an old version what the error is in the newest one, makes one result of each
error a user could have hit, and orders the result. It returns new records: the ranked
matches it was given are left as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from errdex.history.timeline import Links, lineage, newest_of, version_labels
from errdex.match.across_projects import order_tied_projects
from errdex.match.evidence import Frame
from errdex.match.one_result import (
    merge_releases,
    merge_renamed,
    merge_same_text,
    with_versions,
)
from errdex.match.releases import choose_release
from errdex.match.results import Match
from errdex.store.base import Store, StoredSite

__all__ = ["settle_versions"]


def settle_versions(
    store: Store,
    matches: Sequence[Match],
    frames: Sequence[Frame],
    *,
    version: str | None = None,
    exception: str | None = None,
    installed: Mapping[str, str] | None = None,
) -> list[Match]:
    """Each match on the release the paste came from (`releases.py`), its error's sites
    per run of releases, and one result per error a user could have hit (`one_result.py`).

    When several releases hold the match's error, the evidence chooses among them: the
    frames (`frames`, innermost first), the class's module (`exception`, as pasted), the
    release installed where the lookup runs (`installed`). When it does not decide and the
    sites differ, the newest is shown and the match is not `confident`. A lookup scoped to a
    version (`--version`) keeps it. An error that moved (another function or file, the
    same text) has another id in the releases before or after: those releases are among
    the ones chosen from, the result takes the id of the release chosen, and the others go
    to `merged`. Wording that changed is a different id: the template that explains the
    message best already won the ranking; ids of one error matched in several wordings
    become one result. For a match in an older version, `newest` says what the error is in
    the newest one. Results of several projects tied on the same evidence are ordered and
    said as such (`across_projects.py`).
    """
    labels: dict[str, list[str]] = {}
    rows: dict[str, list[StoredSite]] = {}  # each id's sites, read once
    links: Links = {}  # each error's pairings with the releases beside it, worked out once
    settled: list[Match] = []
    for rank, match in enumerate(matches):
        order = labels.get(match.project)
        if order is None:
            order = labels[match.project] = version_labels(store, match.project)
        if len(order) < 2:
            settled.append(match)  # one release of its project: no other to choose or name
            continue
        sites = rows[match.id] = store.get_error(match.id)
        alike: list[str] = []
        if version is None and rank < _ALIKE_RANKS and (match.confident or frames):
            alike = _same_text_elsewhere(store, match.id, sites, order, rows, links)
        pool = [*sites, *(site for other in alike for site in rows[other])]
        if version is None and len({site.version for site in pool}) > 1:
            choice = choose_release(
                store,
                _one_per_release(_newest_first(pool, order)),
                frames,
                exception=exception,
                reason=match.variant.reason if match.variant is not None else None,
                installed=installed,
            )
            # The release chosen may hold the error under another id: the result is that
            # id's, and the others go to `merged` (their sites are the error's too).
            ids = dict.fromkeys([match.id, *alike, *match.merged])
            sites = rows[choice.site.id]
            merged = [i for i in ids if i != choice.site.id]
            match = msgspec.structs.replace(match, id=choice.site.id, merged=merged)
            match = _on(match, choice.site, choice.why)
            if not choice.decided:
                match = msgspec.structs.replace(match, confident=False)
        if order and match.version != order[-1]:
            newest = newest_of(store, sites, order, links)
            match = msgspec.structs.replace(match, newest=newest)
        settled.append(match)
    # An old id whose error is also matched under its newest id, as well or better, is
    # the same answer twice: keep the newest.
    scores = {m.id: m.score for m in settled}
    settled = [m for m in settled if not _superseded(m, scores)]
    settled.sort(key=lambda m: (-m.score, -m.literal_length(), _age(m, labels)))
    one = merge_renamed(store, merge_releases(settled), rows, labels)
    results = merge_same_text(with_versions(store, one, labels, rows))
    return order_tied_projects(results, exception)


# Only the first few matches (those shown) look for their error under other ids: each look
# reads the neighbouring releases' sites.
_ALIKE_RANKS = 5


def _same_text_elsewhere(
    store: Store,
    error_id: str,
    sites: Sequence[StoredSite],
    order: Sequence[str],
    rows: dict[str, list[StoredSite]],
    links: Links,
) -> list[str]:
    """The ids the error has in releases of the catalog that do not hold `error_id`, where
    it moved (another function or file, the same text): a paste cannot tell those releases
    apart by its text, only by the rest of its evidence. A reworded error is left out: the
    wording that explains the paste best already won the ranking."""
    if len(order) < 2 or len({site.version for site in sites}) >= len(order):
        return []
    history = lineage(store, error_id, list(sites), links)
    found = [e.id for e in history if e.status == "moved" and e.id != error_id]
    for other in found:
        if other not in rows:
            rows[other] = store.get_error(other)
    return list(dict.fromkeys(found))


def _newest_first(sites: Sequence[StoredSite], order: Sequence[str]) -> list[StoredSite]:
    place = {label: index for index, label in enumerate(order)}
    return sorted(sites, key=lambda site: -place.get(site.version, -1))


def _one_per_release(sites: Sequence[StoredSite]) -> list[StoredSite]:
    """The first row of each release, in `get_error`'s order (newest release first)."""
    held: dict[str, StoredSite] = {}
    for site in sites:
        held.setdefault(site.version, site)
    return list(held.values())


def _superseded(match: Match, scores: dict[str, float]) -> bool:
    later = match.newest.id if match.newest is not None else None
    return later is not None and later != match.id and scores.get(later, -1.0) >= match.score


def _on(match: Match, site: StoredSite, why: str) -> Match:
    """The match moved to another version's site of the same error."""
    variant = match.variant
    if variant is not None and site.version != match.version:
        same = [v for v in site.site.variants if v.reason.text == variant.reason]
        if same:
            variant = msgspec.structs.replace(
                variant, file=same[0].file or site.file, line=same[0].line
            )
    return msgspec.structs.replace(
        match,
        version=site.version,
        file=site.file,
        line=site.site.line,
        function=site.site.function,
        url=site.url,
        site=site,
        variant=variant,
        why=[*match.why, why],
    )


def _age(match: Match, labels: dict[str, list[str]]) -> int:
    order = labels.get(match.project) or [match.version]
    return len(order) - order.index(match.version) if match.version in order else len(order)
