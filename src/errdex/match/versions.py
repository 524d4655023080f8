"""The last ranking step: which version each match lands on, and what its error became.

A store holding several versions of a project holds one error under each of them; ranking
scored one of those rows. This step puts each match on the version the paste points at,
says for an old version what the error is in the newest one, drops an old id whose newest
id matched as well, and orders the result. It returns new records: the ranked matches it
was given are left as they were.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from errdex.history.timeline import newest_of, version_labels
from errdex.match.evidence import Frame, at_lines
from errdex.match.results import Match
from errdex.store.base import Store, StoredSite

__all__ = ["at_frame", "choose_version", "settle_versions"]


def at_frame(site: StoredSite, frames: Sequence[Frame]) -> int | None:
    """The position of the first frame (innermost first) at the site's lines, if any."""
    for index, frame in enumerate(frames):
        if at_lines(frame, site.file, site.site.line, site.site.end_line):
            return index
    return None


def choose_version(
    sites: Sequence[StoredSite], frames: Sequence[Frame], reason: str | None = None
) -> tuple[StoredSite, str]:
    """One error's site to show, and why: `sites` newest version first (as `get_error`
    gives them), `frames` innermost first, `reason` the reason the message names."""
    pinned = [(index, site) for site in sites if (index := at_frame(site, frames)) is not None]
    if pinned:
        _, site = min(pinned, key=lambda pair: pair[0])  # `min` keeps the newest of equals
        return site, f"version {site.version}: a traceback frame is at its line {site.site.line}"
    if reason is not None:
        for site in sites:
            if any(variant.reason.text == reason for variant in site.site.variants):
                return site, f"version {site.version}: the newest with this reason"
    return sites[0], f"version {sites[0].version}: the newest holding it"


def settle_versions(
    store: Store,
    matches: Sequence[Match],
    frames: Sequence[Frame],
    *,
    version: str | None = None,
) -> list[Match]:
    """Each match on its version (below) and, for a match in an older version, what the
    error is in the newest; equal scores put the newest first, and an old id whose newest
    id matched as well is left out.

    When several versions hold the same error id, the match goes to the version whose site
    sits at a traceback frame's line (the innermost frame first), else to the newest version
    that has the reason the message names, else to the newest. A lookup scoped to a version
    (`--version`) keeps it. Wording differences between versions are different ids: the
    template that explains the message best already won the ranking.
    """
    labels: dict[str, list[str]] = {}
    settled: list[Match] = []
    for match in matches:
        sites = store.get_error(match.id)
        if version is None and len({site.version for site in sites}) > 1:
            reason = match.variant.reason if match.variant is not None else None
            chosen, why = choose_version(sites, frames, reason)
            match = _on(match, chosen, why)
        order = labels.get(match.project)
        if order is None:
            order = labels[match.project] = version_labels(store, match.project)
        if order and match.version != order[-1]:
            match = msgspec.structs.replace(match, newest=newest_of(store, sites, order))
        settled.append(match)
    # An old id whose error is also matched under its newest id, as well or better, is
    # the same answer twice: keep the newest.
    scores = {m.id: m.score for m in settled}
    settled = [m for m in settled if not _superseded(m, scores)]
    return sorted(settled, key=lambda m: (-m.score, -m.literal_length(), _age(m, labels)))


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
