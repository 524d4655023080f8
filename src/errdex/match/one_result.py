"""One result per error a user could have hit: the releases of one error merged into one
result with its sites per run of releases, and the sites that raise the very same text,
when nothing in the paste tells them apart, merged into one result that says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from errdex.history.timeline import version_labels
from errdex.lazy_re import lazy_compile
from errdex.match.releases import version_spans
from errdex.match.results import Match
from errdex.match.same_text import (
    SiteRef,
    likeliest_first,
    plainest,
    preference_reason,
    tie_break,
)
from errdex.store.base import Store, StoredSite

__all__ = [
    "in_site_order",
    "merge_releases",
    "merge_renamed",
    "merge_same_text",
    "same_text_key",
    "site_ref",
    "with_same_text",
    "with_versions",
]

_TIE = 1e-6  # scores this close are the same evidence
_WORDING_TIE = 0.02  # of two wordings' scores: a difference this small tells nothing
_MAX_SAME_TEXT = 100  # sites of one text counted into one result, at most


def merge_releases(matches: Sequence[Match]) -> list[Match]:
    """Matches of one error under several ids (reworded or moved between releases, see
    `newest`) as one: the best-scoring id stays, the others' ids go to its `merged`.

    Of equal scores the paste cannot tell the wordings apart: the newest stays, and the
    answer is not `confident` unless the error sits in the same place in each.
    """
    kept: dict[str, Match] = {}  # the error's newest id → its result
    order: list[str] = []
    for match in matches:
        key = match.newest.id if match.newest is not None and match.newest.id else match.id
        held = kept.get(key)
        if held is None:
            kept[key] = match
            order.append(key)
            continue
        best, other = (held, match) if held.score >= match.score else (match, held)
        # Two wordings that explain the paste within a hair of each other: it cannot tell
        # them apart (a piece of the message both hold, a value where they differ).
        tie = abs(held.score - match.score) <= _WORDING_TIE * max(held.score, match.score)
        if tie and other.newest is None:  # the newest wording of the two stays in front
            best, other = other, best
        merged = [*best.merged, other.id, *other.merged]
        same = (best.file, best.line) == (other.file, other.line)
        kept[key] = msgspec.structs.replace(
            best,
            merged=list(dict.fromkeys(m for m in merged if m != best.id)),
            confident=best.confident and (not tie or same),
        )
    return [kept[key] for key in order]


def with_versions(
    store: Store,
    matches: Sequence[Match],
    labels: dict[str, list[str]],
    rows: dict[str, list[StoredSite]],
) -> list[Match]:
    """Each match with its error's sites per run of releases (its own id and those merged
    into it), newest run first; nothing for an error of one release. `labels` (each
    project's, oldest first) and `rows` (each id's sites) are what was read already."""
    out: list[Match] = []
    for match in matches:
        order = labels.get(match.project)
        if order is None:
            order = labels[match.project] = version_labels(store, match.project)
        if len(order) < 2:
            out.append(match)
            continue
        sites: list[StoredSite] = []
        for error_id in (match.id, *match.merged):
            if error_id not in rows:
                rows[error_id] = store.get_error(error_id)
            sites += rows[error_id]
        spans = version_spans(sites, order)
        out.append(msgspec.structs.replace(match, versions=spans if len(spans) > 1 else []))
    return out


def merge_same_text(matches: Sequence[Match]) -> list[Match]:
    """Matches of the same template, tied in score and not pinned by a frame: one result,
    the site a user most likely hit first (`same_text.py`), the others listed in it."""
    out: list[Match] = []
    used: set[int] = set()
    texts = [_seen_text_of(match) for match in matches]  # (each read once: groups reach 100)
    for i, match in enumerate(matches):
        if i in used:
            continue
        group = [match]
        text = texts[i]
        if text is not None and not match.pinned:
            for j in range(i + 1, len(matches)):
                other = matches[j]
                if j in used or abs(other.score - match.score) > _TIE:
                    continue
                # Sites of one release: the same error in two releases is `merge_releases`'.
                same_release = (other.project, other.version) == (match.project, match.version)
                if same_release and texts[j] == text and not other.pinned:
                    group.append(other)
                    used.add(j)
        if len(group) == 1:
            out.append(match)
            continue
        refs = {site_ref(m): m for m in group}
        what = "with this text"
        if text is not None and text[1] == _COMPUTED:
            # Raises of one class, each with a text of its own made there (a caller's
            # value, a translation): the sites of one text's prior does not order them, and
            # put first it lost cases of the test-suite set; they stay as ranked (newest
            # release, plainest module first).
            what = f"of {text[0]}, each with a message computed there"
            ranked = list(refs)
            reason = f"raised at {len(ranked)} sites {what}; nothing in the paste tells them apart"
            decided = "file_order"
        else:
            ranked = likeliest_first(list(refs))
            reason = preference_reason(ranked[0], ranked[1:])
            decided = tie_break(ranked[0], ranked[1:])
        first = refs[ranked[0]]
        out.append(
            msgspec.structs.replace(
                first,
                others=ranked[1:],
                raised_at=len(ranked),
                tie_break=decided,
                why=[*first.why, reason],
                confident=False,
            )
        )
        # The other sites stay candidates of their own, next in the order a user most
        # likely hit them: the first is a preference, not evidence, and a user whose paste
        # came from the second needs it at rank 2, not inside rank 1's list.
        for ref in ranked[1:]:
            other = refs[ref]
            out.append(
                msgspec.structs.replace(
                    other,
                    raised_at=len(ranked),
                    same_text_as=first.id if first.id != other.id else None,
                    why=[*other.why, _after_reason(first, len(ranked), what)],
                    confident=False,
                )
            )
    return out


def in_site_order(ranked: list[Match]) -> list[Match]:
    """`ranked` (best first, by score and the length of text read) with the matches of each
    release that tie on both put in the order of their sites (plainest module, then line),
    in the places that release's matches held; releases keep their order among themselves.

    Of a tie, the order matches arrive in is the store's and the rounds' (which query found
    them first, ranked by full-text scores that count words over everything indexed): it
    differs between a first answer's few files and the whole package. The sites' own keys
    do not, so both rank a release's ties alike."""
    out = list(ranked)
    start = 0
    while start < len(out):
        tie = (out[start].score, out[start].literal_length())
        end = start + 1
        while end < len(out) and (out[end].score, out[end].literal_length()) == tie:
            end += 1
        places: dict[tuple[str, str], list[int]] = {}
        for i in range(start, end):
            places.setdefault((out[i].project, out[i].version), []).append(i)
        for spots in places.values():
            ordered = sorted((out[i] for i in spots), key=lambda m: (plainest(m.file), m.line))
            for i, match in zip(spots, ordered, strict=True):
                out[i] = match
        start = end
    return out


def with_same_text(ranked: list[Match], count: int) -> list[Match]:
    """The first `count` matches, and the others tied with one of them on the same text of
    the same release: one result counts every site that raises it (`raised at N sites`)."""
    kept = ranked[:count]
    keys = {(key, m.score) for m in kept if (key := same_text_key(m)) is not None}
    for match in ranked[count:]:
        if len(kept) >= _MAX_SAME_TEXT:
            break
        if (same_text_key(match), match.score) in keys:
            kept.append(match)
    return kept


_PLACEHOLDER = lazy_compile(r"\{[^{}]*\}")
_PUNCTUATION = " :.,'\"()[]"
_COMPUTED = "{}"  # the text of a raise matched by its class whose message is all computed


def same_text_key(match: Match) -> tuple[str, str, str | None, str] | None:
    """What makes matches of one release `raise the same text` (see `merge_same_text`)."""
    text = _seen_text_of(match)
    return None if text is None else (match.project, match.version, *text)


def _seen_text_of(match: Match) -> tuple[str | None, str] | None:
    """What a user sees of the match's site, as far as the site decides it: the text that
    matched with each value left open (`Unsupported locale {name!r}.` and `... {locale!r}.`
    read alike), or the class alone for a raise without a message. None for a text that is
    all computed (`{msg}`): its sites do not raise the same text, they raise unknown ones."""
    shown = match.shown if match.shown is not None else match.message
    if shown is None or not shown.strip():
        return (match.exception, "") if match.exception else None
    if match.guess:
        # Matched by its class, the text it raises not compared; where that text is all
        # computed at the raise (`raise TemplateNotFound(name)`), each such raise of the
        # class prints whatever it was given, the paste's message as well as any.
        if match.exception and not _PLACEHOLDER.sub("", shown).strip(_PUNCTUATION):
            return (match.exception, _COMPUTED)
        return None
    shape = _PLACEHOLDER.sub("{}", shown)
    if not shape.replace("{}", "").strip(_PUNCTUATION):
        return None
    return (None, shape)


def _after_reason(first: Match, count: int, what: str) -> str:
    return (
        f"raised at {count} sites {what}; {first.function} "
        f"({first.file}:{first.line}) is the likelier and comes first"
    )


def site_ref(match: Match) -> SiteRef:
    """The match as another site of a result (`others`), and as same_text.py ranks it."""
    return SiteRef(
        id=match.id, version=match.version, file=match.file, line=match.line,
        function=match.function, callers=len(match.site.callers) if match.site else 0,
        conditions=len(match.site.site.conditions) if match.site else 0, kind=match.kind,
        through_helper=_given_by_call(match),
    )  # fmt: skip


def _given_by_call(match: Match) -> bool:
    """Whether the match's raise shows a text that a helper's call gives it, not one its own
    template writes: a raise writing the text itself is that, whether or not a call that
    reaches it is indexed too (pygments' `get_lexer_by_name`, called with an alias from
    `lexers/textfmts.py`, raises `no lexer for alias {_alias!r} found` itself)."""
    if match.called_at is None:
        return False
    shown = match.shown if match.shown is not None else match.message
    if match.message is None or shown is None:
        return True
    return _PLACEHOLDER.sub("{}", match.message) != _PLACEHOLDER.sub("{}", shown)


def merge_renamed(
    store: Store,
    matches: Sequence[Match],
    rows: dict[str, list[StoredSite]],
    labels: Mapping[str, Sequence[str]],
) -> list[Match]:
    """Matches of one project and class that explain the paste equally, from releases none
    of which holds both, as one result: the error renamed and reworded between releases
    (`create_response_field` raising `Invalid args for response field! Hint: ...` became
    `create_model_field` with a longer hint), which the history does not link. The first
    (the newer, as ranked) stays; the other's ids go to its `merged`, and it is not
    `confident`: the paste does not say which release it came from. `rows` holds each id's
    sites, read as needed; `labels`, each project's releases (of one, nothing is renamed)."""
    out: list[Match] = []
    for match in matches:
        if len(labels.get(match.project, ())) < 2:
            out.append(match)
            continue
        held = next((m for m in out if _renamed(store, m, match, rows)), None)
        if held is None:
            out.append(match)
            continue
        merged = [*held.merged, match.id, *match.merged]
        out[out.index(held)] = msgspec.structs.replace(
            held,
            merged=list(dict.fromkeys(m for m in merged if m != held.id)),
            confident=False,
            why=[*held.why, f"the same error as {match.function} in version {match.version}, "
                 "renamed between releases; the paste fits both"],
        )  # fmt: skip
    return out


def _renamed(store: Store, first: Match, other: Match, rows: dict[str, list[StoredSite]]) -> bool:
    if (first.project, first.exception) != (other.project, other.exception):
        return False
    if abs(first.score - other.score) > _TIE or first.pinned or other.pinned:
        return False
    if first.guess or other.guess or first.message is None or other.message is None:
        return False
    return not (_releases(store, first, rows) & _releases(store, other, rows))


def _releases(store: Store, match: Match, rows: dict[str, list[StoredSite]]) -> set[str]:
    held: set[str] = set()
    for error_id in (match.id, *match.merged):
        if error_id not in rows:
            rows[error_id] = store.get_error(error_id)
        held |= {site.version for site in rows[error_id]}
    return held
