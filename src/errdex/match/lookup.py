"""From pasted text to ranked sites: every error of the paste scored against its candidates
in rounds (narrow, wide, cut short, wrapped, logged), then the answers kept, ordered and
settled to one release.

Candidates come from `candidates.py`, each is scored by `site_scorer.py`; every piece of
agreement is named in `why`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import msgspec

from errdex.match.across_projects import order_tied_projects
from errdex.match.candidates import candidates, one_value
from errdex.match.evidence import ErrorEvidence, Evidence
from errdex.match.helper_raise import raise_inside_helpers
from errdex.match.lent_by_tests import demote_lent_by_tests
from errdex.match.logged import logged_by
from errdex.match.message_reading import Readings
from errdex.match.one_result import in_site_order, with_same_text
from errdex.match.readings import readings
from errdex.match.reraised import quoted_key_first, reraised_texts
from errdex.match.results import LookupResult, Match
from errdex.match.same_text import plainest
from errdex.match.site_scorer import SiteScorer
from errdex.match.versions import settle_versions
from errdex.match.weights import WEIGHTS as W
from errdex.match.wrapped import Inner, inner_texts, wrapper_candidates
from errdex.settable import settable_text
from errdex.store.base import Store, StoredSite

__all__ = ["rank"]


def rank(
    store: Store,
    evidence: Evidence,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
    installed: Mapping[str, str] | None = None,
) -> LookupResult:
    """Score every candidate against every error in the paste; keep the best per error id.

    `installed` maps projects to the release installed where the paste came from, when
    the caller knows it (a hook in the user's process): evidence of the release, used
    when the paste itself does not tell.
    """
    best: dict[str, Match] = {}
    near: dict[str, Match] = {}
    items = [(i, r) for i, e in enumerate(evidence.errors[:4]) for r in readings(e)]

    read: set[int] = set()  # the errors a whole reading of their message explains
    memo: Readings = {}
    # The sites each reading has been scored against, without inner texts: the same row met
    # again (a text's hits and its class's raises, the narrow and the wide round) scores the
    # same, and an equal score changes nothing. The records are kept: their ids stay theirs.
    scored: dict[tuple[int, int, bool, bool], dict[int, StoredSite]] = {}

    def score(
        index: int,
        item: ErrorEvidence,
        sites: list[StoredSite],
        cut: bool,
        inner: Sequence[Inner] = (),
        logged: bool = False,
    ) -> None:
        scorer = SiteScorer(
            item, W.error_weight(index), cut=cut, inner=inner, logged=logged, memo=memo
        )
        done = scored.setdefault((index, id(item), cut, logged), {}) if not inner else {}
        for stored in sites:
            if id(stored) in done:
                continue
            done[id(stored)] = stored
            match = scorer.score(stored)
            if match is None:
                continue
            # A raise matched by its class alone read nothing of the message; a template
            # found inside it left some unread (the rest may be a longer template, cut).
            if match.confident and not (match.piece or match.guess or match.partial):
                read.add(index)
            target = best if match.confident else near
            previous = target.get(match.id)
            if previous is None or _better(match, previous):
                target[match.id] = match

    # Read once per lookup, and only when a pasted class is named with its package.
    qualified = project is None and any("." in (item.exception or "") for _, item in items)
    projects = [p.name for p in store.projects()] if qualified else []
    rounds = [
        (i, item, candidates(store, item, project, version, projects=projects)) for i, item in items
    ]
    for index, item, sites in rounds:
        score(index, item, sites, cut=False)
    if not any(m.score >= W.strong for m in best.values()):
        wide = [
            (i, item, candidates(store, item, project, version, wide=True)) for i, item in items
        ]
        for index, item, sites in wide:
            score(index, item, sites, cut=False)
        rounds += wide
    # Messages no whole reading explains may have been cut short (without a marker).
    for index, item, sites in rounds:
        if index not in read:
            score(index, item, sites, cut=True)
    # A line printed around another site's text: the wrapper printed it (`wrapped.py`).
    for index, item in items:
        if inner := inner_texts([*best.values(), *near.values()], item.message):
            score(index, item, wrapper_candidates(store, item.message, inner), False, inner)
    # Too few words to search for (`WARNING:lark: * <as : >`): the logger's own log calls.
    for index, item in items if not best and not near else ():
        score(index, item, logged_by(store, item, project, version), cut=False, logged=True)
    for key in best:
        near.pop(key, None)
    _promote_text_matches(
        best,
        near,
        bare=not any(item.message.strip() for _, item in items),
        value=any(one_value(item) for _, item in items),
    )
    reraised_texts(best, near)  # `raise Wrapper(str(err))`: a caught error's text passed on
    if any(item.quoted and not (item.exception or "").endswith("KeyError") for _, item in items):
        quoted_key_first(best)
    _demote_guesses(best)
    demote_lent_by_tests(best)  # a test's call lends its text to a library raise
    frames = [frame for item in evidence.errors[:4] for frame in item.places()]
    frames += evidence.stray_frames
    pasted = evidence.errors[0].exception if evidence.errors else None
    return LookupResult(
        # Settling drops old versions of errors also matched in a newer one: take a few more
        # first, so that `limit` answers remain.
        matches=settle_versions(
            store,
            with_same_text(
                raise_inside_helpers(
                    store,
                    order_tied_projects(_ordered(best.values()), pasted, say=False),
                    limit * 3,
                ),
                limit * 3,
            ),
            frames,
            version=version,
            exception=pasted,
            installed=installed,
        )[:limit],
        nearest=_ordered(near.values())[:limit] if not best else [],
        evidence=evidence,
    )


def _promote_text_matches(
    best: dict[str, Match], near: dict[str, Match], *, bare: bool, value: bool
) -> None:
    """Count as answers the matches whose template explains part of the message, though too
    little of it to be sure, where they score above the answers matched by class alone
    (`{path}: Error parsing TOML file: {e}` explains more of a paste than any raise of the
    same class whose text is computed), or where nothing else answers.

    `bare`: the paste is a class name without a message, which every raise of that class
    without one prints alike: those raises are its answers (`raised at N sites`). `value`:
    the message is one value (`KeyError: 'k'`), which every raise of the class given one
    value prints alike (`raise KeyError(key)`): those raises are its answers.
    """
    if not best:
        # Nothing else answers: a template spanning the whole message is a match, though
        # long values leave it a small share of the text (`File at path {path} does not
        # exist.`); it stays not `confident`.
        for key, match in list(near.items()):
            if (
                (match.whole and not match.guess)
                or (bare and match.message is None)
                or (value and match.site is not None and _one_placeholder(match.site))
            ):
                best[key] = near.pop(key)
        if not best:
            # Still nothing: the raises whose text a user of the class may set (`self.message
            # or "default"`) are the ones that print a text no index holds.
            for key, match in list(near.items()):
                if match.guess and match.site is not None and settable_text(match.site.site):
                    best[key] = near.pop(key)
        return
    guesses = [m.score for m in best.values() if m.guess]
    if not guesses:
        return
    floor = max(guesses)
    for key, match in list(near.items()):
        if not match.guess and not match.piece and match.score > floor:
            best[key] = near.pop(key)


def _one_placeholder(stored: StoredSite) -> bool:
    """The site's message is one value as it was given (`raise KeyError(key)`)."""
    message = stored.site.message
    return message is not None and len(message.parts) == 1 and bool(message.placeholders)


def _demote_guesses(best: dict[str, Match]) -> None:
    """Put the sites matched by their class alone after any of the same class that the
    text or a frame pins, and claim none of them when others of its class are answers too.

    Only the same class: `requests.ConnectionError: ... Max retries exceeded ...` is
    rightly requests' `raise ConnectionError(e)`, matched by its class, though urllib3's
    `MaxRetryError` template explains the text.
    """
    floors: dict[str | None, float] = {}
    for match in best.values():
        if not match.guess:
            floors[match.exception] = max(match.score, floors.get(match.exception, 0.0))
    for key, match in best.items():
        floor = floors.get(match.exception)
        if match.guess and floor is not None and match.score >= floor:
            best[key] = msgspec.structs.replace(match, score=round(floor * W.guess_under_pinned, 4))
    # A guess among other answers of its class is a preference (the words of its guard), not
    # evidence: listed, never claimed.
    per_class = Counter(match.exception for match in best.values())
    for key, match in best.items():
        if match.guess and per_class[match.exception] > 1:
            best[key] = msgspec.structs.replace(match, confident=False)


def _better(new: Match, old: Match) -> bool:
    if new.score != old.score:
        return new.score > old.score
    if (new.project, new.version) == (old.project, old.version):
        # Two sites of one error in one release: the first in site order, whichever the
        # rounds met first (see `in_site_order`).
        return (plainest(new.file), new.line) < (plainest(old.file), old.line)
    return False  # same score: keep the first, which came from the newer version


def _ordered(matches: Iterable[Match]) -> list[Match]:
    return in_site_order(sorted(matches, key=lambda m: (-m.score, -m.literal_length())))
