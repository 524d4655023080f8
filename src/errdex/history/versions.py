"""Which version a lookup lands on, and what became of its error in the newest version."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import msgspec

from errdex.history.timeline import fate_of, version_labels
from errdex.store.base import Store, StoredSite

if TYPE_CHECKING:
    from errdex.match.lookup import Match


class FrameLike(Protocol):
    """A traceback frame: its file as printed and its line."""

    @property
    def path(self) -> str: ...

    @property
    def line(self) -> int | None: ...


class NewestVersion(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """For a match in an older version: the error in the project's newest version."""

    version: str  # the newest version
    id: str | None  # the error's id there; None when it was removed
    status: str  # "present", "reworded", "moved" or "removed"
    removed_after: str | None = None  # the last version that had it, when removed


def at_frame(site: StoredSite, frames: Sequence[FrameLike]) -> int | None:
    """The position of the first frame (innermost first) at the site's lines, if any."""
    for index, frame in enumerate(frames):
        line = frame.line
        if line is None or not (site.site.line <= line <= site.site.end_line):
            continue
        path = frame.path.replace("\\", "/")
        if path == site.file or path.endswith("/" + site.file):
            return index
    return None


def choose_version(
    sites: Sequence[StoredSite], frames: Sequence[FrameLike], reason: str | None = None
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
    matches: list[Match],
    frames: Sequence[FrameLike],
    *,
    version: str | None = None,
) -> list[Match]:
    """Put each match on its version (below) and say, for a match in an older
    version, what the error is in the newest; equal scores put the newest first, and an
    old id whose newest id matched as well is left out.

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
            match.newest = newest_of(store, sites, order)
        settled.append(match)
    # An old id whose error is also matched under its newest id, as well or better, is
    # the same answer twice: keep the newest.
    scores = {m.id: m.score for m in settled}
    settled = [m for m in settled if not _superseded(m, scores)]
    return sorted(settled, key=lambda m: (-m.score, -_literal(m), _age(m, labels)))


def _superseded(match: Match, scores: dict[str, float]) -> bool:
    later = match.newest.id if match.newest is not None else None
    return later is not None and later != match.id and scores.get(later, -1.0) >= match.score


def newest_of(store: Store, sites: list[StoredSite], labels: list[str]) -> NewestVersion:
    """What the error of `sites` (one id's rows) is in the newest of `labels`."""
    fate = fate_of(store, sites, labels)
    return NewestVersion(
        version=fate.version,
        id=fate.id,
        status=fate.status,
        removed_after=fate.last_version if fate.status == "removed" else None,
    )


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


def _literal(match: Match) -> int:
    message = match.site.site.message if match.site is not None else None
    return message.literal_length if message is not None else 0


def _age(match: Match, labels: dict[str, list[str]]) -> int:
    order = labels.get(match.project) or [match.version]
    return len(order) - order.index(match.version) if match.version in order else len(order)
