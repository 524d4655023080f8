"""Per error id: the versions that hold it, what it became after, and what it was before."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from errdex.history.pairing import WEAK, Link, Pairing, focus, pair_sites, template_text
from errdex.lazy_re import lazy_compile
from errdex.store.base import Store, StoredSite

_MAX_FILES = 8  # files paired to follow an error: its own and those with similar wording
_ANCHORS = 3  # messages searched for in the other version: the site's and its neighbours'
_SIMILAR_SITES = 20  # full-text hits per message
_RAREST = 3  # a hit holds each of the message's three rarest words (a narrow, fast search)
_WORD = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")


class HistoryEntry(msgspec.Struct, frozen=True, kw_only=True):
    """An error in one version: where it sits, under which id, and how that id relates.

    `status` is "present" for the id asked about; "reworded" or "moved" for the id the
    error has in that version after (or before) a change; "removed" for the first version
    without it (`file` and `line` then say where it last was).
    """

    version: str
    file: str
    line: int
    id: str
    status: str = "present"


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One change of id between adjacent versions."""

    status: str  # "reworded" or "moved"
    old_id: str
    new_id: str
    old_version: str  # the last version with the old id
    new_version: str  # the first version with the new id
    old_template: str | None = None
    new_template: str | None = None
    similarity: float = 1.0


class Fate(msgspec.Struct, frozen=True, kw_only=True):
    """What became of an error in the newest version of its project."""

    status: str  # "present", "reworded", "moved" or "removed"
    version: str  # the project's newest version
    id: str | None  # the error's id there (None when removed)
    file: str | None = None
    line: int | None = None
    last_version: str  # the last version holding the error, under any of its ids
    steps: list[Step] = []  # each change of id on the way, oldest first


class NewestVersion(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """For a match in an older version: the error in the project's newest version."""

    version: str  # the newest version
    id: str | None  # the error's id there; None when it was removed
    status: str  # "present", "reworded", "moved" or "removed"
    removed_after: str | None = None  # the last version that had it, when removed


# The links found so far, by direction and site (project, version, id, file, line): one
# caller (a lookup settling its matches) asks `lineage` and `newest_of` of the same error,
# and both follow it through the same pairings of adjacent versions.
Links = dict[tuple[str, str, str, str, str, int], "Link | None"]


def version_labels(store: Store, project: str) -> list[str]:
    """The project's version labels, oldest first."""
    return [record.label for record in reversed(store.versions(project))]


def by_version(sites: list[StoredSite]) -> dict[str, StoredSite]:
    """One site per version label (the first `get_error` gives for it)."""
    held: dict[str, StoredSite] = {}
    for site in sites:
        held.setdefault(site.version, site)
    return held


def error_history(store: Store, error_id: str) -> list[HistoryEntry]:
    """The versions that hold `error_id`, oldest first, with its file and line in each.

    Raises `NotFoundError` for an unknown id.
    """
    sites = store.get_error(error_id.strip().lower())
    labels = version_labels(store, sites[0].project)
    held = by_version(sites)
    return [_entry(held[label]) for label in labels if label in held]


def what_became(store: Store, error_id: str) -> Fate:
    """The error's id in the newest version, following rewordings and moves, or the last
    version that had it. Raises `NotFoundError` for an unknown id.

    Each question is answered from the id's own rows and, when the error changed between two
    adjacent versions, by pairing the sites of a few files of those two versions (its own file
    and the files whose messages share its words): the work per call stays bounded by those
    files, however large the project, so pages can ask on every view.
    """
    sites = store.get_error(error_id.strip().lower())
    return fate_of(store, sites, version_labels(store, sites[0].project))


def fate_of(
    store: Store, sites: list[StoredSite], labels: list[str], links: Links | None = None
) -> Fate:
    """`what_became` for the rows of one id already read (`labels` oldest first); `links`
    keeps the links found, for the caller's next questions."""
    newest = labels[-1]
    steps: list[Step] = []
    held = by_version(sites)
    for _ in labels:
        if newest in held:
            site = held[newest]
            return Fate(
                status=_status(steps),
                version=newest,
                id=site.id,
                file=site.file,
                line=site.site.line,
                last_version=newest,
                steps=steps,
            )
        last = _last(held, labels)
        link = _follow(successor, store, held[last], labels, links)
        if link is None:
            break
        steps.append(_step(link))
        held = by_version(store.get_error(link.new.id))
    last = _last(held, labels)
    return Fate(status="removed", version=newest, id=None, last_version=last, steps=steps)


def newest_of(
    store: Store, sites: list[StoredSite], labels: list[str], links: Links | None = None
) -> NewestVersion:
    """What the error of `sites` (one id's rows) is in the newest of `labels`."""
    fate = fate_of(store, sites, labels, links)
    return NewestVersion(
        version=fate.version,
        id=fate.id,
        status=fate.status,
        removed_after=fate.last_version if fate.status == "removed" else None,
    )


def what_was(store: Store, error_id: str) -> Step | None:
    """The change that made `error_id` out of an error of the version before its first,
    or None when it is new there (or there is no earlier version)."""
    sites = store.get_error(error_id.strip().lower())
    labels = version_labels(store, sites[0].project)
    held = by_version(sites)
    link = predecessor(store, held[_first(held, labels)], labels)
    return _step(link) if link is not None else None


def lineage(
    store: Store,
    error_id: str,
    sites: list[StoredSite] | None = None,
    links: Links | None = None,
) -> list[HistoryEntry]:
    """Every version where the error is, newest first, under whichever id it has there.

    The id's own versions are "present"; versions where it had another id, after or
    before a change, are "reworded" or "moved" with that id; the first version after the
    error went is "removed". Entries map one to one onto the page's `VersionEntry`.
    `sites` are the id's sites (`store.get_error`), when the caller has read them; `links`
    keeps the links found, for the caller's next questions.
    """
    if sites is None:
        sites = store.get_error(error_id.strip().lower())
    labels = version_labels(store, sites[0].project)
    own = by_version(sites)
    entries = {label: _entry(site) for label, site in own.items()}
    for direction in (successor, predecessor):
        held, changes = own, []
        for _ in labels:
            end = _last(held, labels) if direction is successor else _first(held, labels)
            link = _follow(direction, store, held[end], labels, links)
            if link is None:
                if direction is successor and end != labels[-1]:
                    after = labels[labels.index(end) + 1]
                    entries.setdefault(after, _entry(held[end], "removed", after))
                break
            changes.append(link.status)
            status = "reworded" if "reworded" in changes else "moved"
            other = link.new if direction is successor else link.old
            held = by_version(store.get_error(other.id))
            for label, site in held.items():
                entries.setdefault(label, _entry(site, status))
    order = {label: index for index, label in enumerate(labels)}
    return sorted(entries.values(), key=lambda e: -order.get(e.version, -1))


def _follow(
    direction: Callable[[Store, StoredSite, list[str]], Link | None],
    store: Store,
    site: StoredSite,
    labels: list[str],
    links: Links | None,
) -> Link | None:
    """`direction(store, site, labels)`, taken from `links` when asked before."""
    if links is None:
        return direction(store, site, labels)
    key = (direction.__name__, site.project, site.version, site.id, site.file, site.site.line)
    if key not in links:
        links[key] = direction(store, site, labels)
    return links[key]


def successor(store: Store, site: StoredSite, labels: list[str]) -> Link | None:
    """What `site` (of the last version holding its id) is in the next version, if any."""
    index = labels.index(site.version)
    if index + 1 >= len(labels):
        return None
    later = labels[index + 1]
    link = _nearby(store, site, site.version, later).link_of_old(site.id)
    return link if link is not None and link.new.id != site.id else None


def predecessor(store: Store, site: StoredSite, labels: list[str]) -> Link | None:
    """What `site` (of the first version holding its id) was in the version before, if any."""
    index = labels.index(site.version)
    if index == 0:
        return None
    earlier = labels[index - 1]
    link = _nearby(store, site, earlier, site.version).link_of_new(site.id)
    return link if link is not None and link.old.id != site.id else None


def _nearby(store: Store, site: StoredSite, old: str, new: str) -> Pairing:
    """The pairing of two adjacent versions around `site`: over its own file first; when
    that does not place it, also over the files where the other version has the messages
    of the site or of its nearest neighbours (a bare `raise` has no words; the function
    around it moves with its wordier siblings). Only the sites that can compete with the
    site's own pairs are paired (see `focus`)."""
    other = new if site.version == old else old

    def pair(mine: list[StoredSite], theirs: list[StoredSite]) -> Pairing:
        if site.version == old:
            return pair_sites(*focus(site.site.function, mine, theirs))
        theirs, mine = focus(site.site.function, theirs, mine)
        return pair_sites(theirs, mine)

    mine = store.sites_in_files([site.file], project=site.project, version=site.version)
    theirs = store.sites_in_files([site.file], project=site.project, version=other)
    pairing = pair(mine, theirs)
    link = pairing.link_of_old(site.id) if site.version == old else pairing.link_of_new(site.id)
    # A rewording here loses to a move when the exact text is in another file there.
    if (
        link is not None
        and link.old.id != link.new.id
        and (link.status == "moved" or not _copied_elsewhere(store, site, other))
    ):
        return pairing
    files = _where_else(store, site, mine, other)
    if not files:
        return pairing
    mine += store.sites_in_files(files, project=site.project, version=site.version)
    theirs += store.sites_in_files(files, project=site.project, version=other)
    return pair(mine, theirs)


def _copied_elsewhere(store: Store, site: StoredSite, other: str) -> bool:
    """The `other` version has the site's exact message in another file."""
    text = template_text(site)
    terms = _terms(site)
    if text is None or not terms:
        return False
    hits = store.search_candidates(terms, site.project, other, limit=_SIMILAR_SITES, rarest=_RAREST)
    return any(hit.file != site.file and template_text(hit) == text for hit in hits)


def _where_else(store: Store, site: StoredSite, own: list[StoredSite], other: str) -> list[str]:
    """Files of the `other` version holding the messages of the site and its neighbours,
    the likeliest first (the same text counts three times a shared word)."""
    votes: dict[str, int] = {}
    for anchor in _anchors(site, own):
        text = template_text(anchor)
        for hit in store.search_candidates(
            _terms(anchor), site.project, other, limit=_SIMILAR_SITES, rarest=_RAREST
        ):
            votes[hit.file] = votes.get(hit.file, 0) + (3 if template_text(hit) == text else 1)
    votes.pop(site.file, None)
    return sorted(votes, key=lambda path: -votes[path])[: _MAX_FILES - 1]  # stable on ties


def _anchors(site: StoredSite, own: list[StoredSite]) -> list[StoredSite]:
    """The site, then its wordiest neighbours: same function, then same class, then nearest."""

    def distance(other: StoredSite) -> tuple[bool, bool, int]:
        return (
            other.site.function != site.site.function,
            other.site.class_name != site.site.class_name,
            abs(other.site.line - site.site.line),
        )

    worded = [s for s in own if s.id != site.id and _worded(s)]
    first = [site] if _worded(site) else []  # a bare `raise`'s words are everyone's
    return [*first, *sorted(worded, key=distance)][:_ANCHORS]


def _worded(site: StoredSite) -> bool:
    message = site.site.message
    return message is not None and message.literal_length >= WEAK


def _terms(site: StoredSite) -> list[str]:
    """Words to find the site's message by: its literal text's, longest first."""
    message = site.site.message
    words = _WORD.findall(message.literal_text) if message is not None else []
    return sorted(dict.fromkeys(words), key=len, reverse=True)[:12]


def _entry(site: StoredSite, status: str = "present", version: str | None = None) -> HistoryEntry:
    return HistoryEntry(
        version=version or site.version,
        file=site.file,
        line=site.site.line,
        id=site.id,
        status=status,
    )


def _step(link: Link) -> Step:
    return Step(
        status=link.status,
        old_id=link.old.id,
        new_id=link.new.id,
        old_version=link.old.version,
        new_version=link.new.version,
        old_template=template_text(link.old),
        new_template=template_text(link.new),
        similarity=link.similarity,
    )


def _status(steps: list[Step]) -> str:
    if not steps:
        return "present"
    return "reworded" if any(step.status == "reworded" for step in steps) else "moved"


def _last(held: dict[str, StoredSite], labels: list[str]) -> str:
    return max(held, key=labels.index)


def _first(held: dict[str, StoredSite], labels: list[str]) -> str:
    return min(held, key=labels.index)
