"""A helper's call matched by its text: the result is the raise inside the helper, and it
names the call.

`ctx.fail(f"No such command {name!r}.")` makes `Context.fail` raise `UsageError(message)`:
the statement that raises is in the helper, where a traceback's innermost frame points and
where a debugger stops; the call holds the text and the conditions that say when. The index
keeps both (the call is a site of its own, `IndexedSite.helper_raise` says which raise it
makes happen), and a paste of the text matches the call best. A user is shown one result:
the raise, with the call that gave it the text (`called_at`), whatever the paste's form; a
traceback that pins the raise and the call says the same.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from errdex.facts import SiteKind
from errdex.match.results import Match
from errdex.match.same_text import SiteRef
from errdex.store.base import Store, StoredSite

__all__ = ["raise_inside_helpers"]

_RAISES = (SiteKind.RAISE, SiteKind.WARN)


def raise_inside_helpers(store: Store, matches: Sequence[Match], count: int) -> list[Match]:
    """`matches` (best first) with each helper's call among the first `count` shown as the
    raise inside the helper, naming the call; one result per raise (the call's text that
    explains the paste best names it).

    A helper that raises the same text at several places (`raise DecodeError(f"Invalid
    {name} padding")` on each way a segment is bad) raises it at any of them for the call:
    each is a result, with the call's score, and the same text makes them one result of
    several sites (`one_result.merge_same_text`)."""
    out: list[Match] = []
    at: dict[str, int] = {}  # error id → its place in `out`
    used: set[int] = set()  # places in `matches` shown through a call
    files: dict[tuple[str, str, str], list[StoredSite]] = {}  # a file's sites, read once
    for i, match in enumerate(matches):
        if i in used:
            continue
        target = match.site.helper_raise if match.site is not None else None
        raises = _raises(store, files, target, match) if target is not None and i < count else []
        if not raises:
            if match.id not in at:
                at[match.id] = len(out)
                out.append(match)
            continue
        # A traceback's frame that pins one of them says which raised.
        pinned = [r for r in raises if _pinned(matches, r, match)]
        for raised in pinned or raises:
            shown = match
            j = _matched_at(matches, raised, match)
            if j is not None:
                used.add(j)
                shown = msgspec.structs.replace(match, score=max(match.score, matches[j].score))
            held = at.get(raised.id)
            if held is not None:  # already shown, through a frame or a better call
                if out[held].called_at is None:
                    out[held] = _naming(out[held], match)
                continue
            at[raised.id] = len(out)
            out.append(_through(shown, raised))
    return out


def _raises(
    store: Store,
    files: dict[tuple[str, str, str], list[StoredSite]],
    target: tuple[str, int],
    call: Match,
) -> list[StoredSite]:
    """The raise inside the helper that the call makes happen, then the helper's other
    raises of the very same text, in file order."""
    file, line = target
    key = (call.project, call.version, file)
    if key not in files:
        files[key] = store.sites_in_files([file], None, call.project, call.version)
    sites = [s for s in files[key] if s.site.kind in _RAISES]
    first = next((s for s in sites if s.site.line == line), None)
    if first is None:
        return []
    text = first.site.message.text if first.site.message is not None else None
    same = [
        s
        for s in sites
        if s is not first
        and text is not None
        and s.site.function == first.site.function
        and s.site.message is not None
        and s.site.message.text == text
    ]
    return [first, *sorted(same, key=lambda s: s.site.line)]


def _pinned(matches: Sequence[Match], raised: StoredSite, call: Match) -> bool:
    j = _matched_at(matches, raised, call)
    return j is not None and matches[j].pinned


def _matched_at(matches: Sequence[Match], raised: StoredSite, call: Match) -> int | None:
    for j, other in enumerate(matches):
        if other.id == raised.id and (other.project, other.version) == (
            call.project,
            call.version,
        ):
            return j
    return None


def _call_ref(call: Match) -> SiteRef:
    site = call.site
    return SiteRef(
        id=call.id, version=call.version, file=call.file, line=call.line,
        function=call.function, callers=len(site.callers) if site is not None else 0,
        conditions=len(site.site.conditions) if site is not None else 0, kind=call.kind,
    )  # fmt: skip


def _naming(raised: Match, call: Match) -> Match:
    """The raise's result naming the call that gives it the text."""
    return msgspec.structs.replace(
        raised,
        called_at=_call_ref(call),
        why=[*raised.why, _reason(raised.function, raised.file, raised.line, call)],
    )


def _through(call: Match, raised: StoredSite) -> Match:
    """The call's match shown at the raise it makes happen: the text and values the paste
    matched stay the call's (the text a user sees), the site is the raise."""
    site = raised.site
    info = raised.exception
    return msgspec.structs.replace(
        call,
        id=raised.id,
        kind=str(site.kind),
        exception=info.name if info is not None else site.exception,
        message=site.message.text if site.message is not None else None,
        shown=call.shown if call.shown is not None else call.message,
        file=raised.file,
        line=site.line,
        function=site.function,
        url=raised.url,
        site=raised,
        called_at=_call_ref(call),
        why=[*call.why, _reason(site.function, raised.file, site.line, call)],
    )


def _reason(helper: str, file: str, line: int, call: Match) -> str:
    return (
        f"raised inside the helper {helper} ({file}:{line}) with the text the call in "
        f"{call.function} ({call.file}:{call.line}) gives it"
    )
