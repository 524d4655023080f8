"""Results of several projects that the paste cannot tell apart: the order they are shown
in, and the answer saying so.

A catalog holds many projects, and the same text is often raised by more than one: a copy
(typer carries its own click; `six` lives inside urllib3 and is copied into other
projects), a shared idiom (`not expecting type '{type(s)}'`), a bare class
(`NotImplementedError`). When their results score the same, nothing in the paste (frames,
the class with its module, the printed form, a log prefix) chose between them: which comes
first is then a stated preference, not the order the projects were indexed in, and none of
them is `confident`.

The preference: the project whose package the pasted class is written with
(`jinja2.exceptions.TemplateNotFound` is jinja2's own, though Flask raises it too); then
`same_text.py`'s, the one that orders the sites of one text in one release, applied to the
projects' results in turn (each project's own stay in their order).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from errdex.match.one_result import site_ref
from errdex.match.results import Match
from errdex.match.same_text import likelihood
from errdex.match.weights import WEIGHTS as W

__all__ = ["order_tied_projects"]

_TIE = 1e-6  # scores this close are the same evidence (as `one_result.py`'s)
_NAMED = 3  # projects named in the reason, at most


def order_tied_projects(
    matches: Sequence[Match], exception: str | None = None, *, say: bool = True
) -> list[Match]:
    """`matches` (ranked) with each run of tied results that spans several projects put in
    the order of the likeliest result of each project; with `say`, every one of them not
    `confident` and the reason in its `why`. A project's own results keep their order.
    `exception` is the class as pasted.

    Ranking calls it without `say` before it cuts the candidates to the few it settles, so
    that the cut keeps the likeliest of a tie, not the projects indexed last."""
    home = _package_of(exception)
    # Which results the text or a frame pinned, before ties among them are said.
    sure = {(m.id, m.file, m.line) for m in matches if m.confident}
    out: list[Match] = []
    start = 0
    while start < len(matches):
        end = start + 1
        while end < len(matches) and _tied(matches[start], matches[end]):
            end += 1
        out.extend(_ordered_run(matches[start:end], home, say))
        start = end
    return _contested(out, sure) if say else out


def _contested(matches: list[Match], sure: set[tuple[str, str, int]]) -> list[Match]:
    """The first result not `confident` when another project's result is, scoring near it:
    the text fits both (`'nope' is not one of 'a', 'b'.` in werkzeug and in typer)."""
    if not matches or not matches[0].confident:
        return matches
    first = matches[0]
    rival = next(
        (
            m
            for m in matches[1:]
            if m.project != first.project
            and (m.id, m.file, m.line) in sure
            and first.score - m.score < W.contested
        ),
        None,
    )
    if rival is None:
        return matches
    reason = (
        f"{rival.project} {rival.version} ({rival.file}:{rival.line}) explains the paste "
        "nearly as well: nothing in it tells which project raised it"
    )
    first = msgspec.structs.replace(first, confident=False, why=[*first.why, reason])
    return [first, *matches[1:]]


def _tied(first: Match, other: Match) -> bool:
    return (
        abs(first.score - other.score) <= _TIE and first.literal_length() == other.literal_length()
    )


def _package_of(exception: str | None) -> str | None:
    """The top-level package a pasted class is written with (`jinja2` of
    `jinja2.exceptions.TemplateNotFound`); None for a bare or builtin name."""
    if not exception or "." not in exception or exception.startswith("builtins."):
        return None
    return exception.split(".", 1)[0]


def _home(match: Match, home: str | None) -> bool:
    return home is not None and match.file.replace("\\", "/").split("/", 1)[0] == home


def _ordered_run(run: Sequence[Match], home: str | None, say: bool) -> list[Match]:
    """The run's results, each project's in its own order, the projects interleaved: the
    likelier of the projects' next results comes next."""
    queues: dict[str, list[Match]] = {}
    for match in run:
        queues.setdefault(match.project, []).append(match)
    if len(queues) < 2:
        return list(run)
    key = {id(m): (not _home(m, home), _preference(m)) for m in run}
    ordered: list[Match] = []
    while queues:
        project = min(queues, key=lambda name: key[id(queues[name][0])])
        ordered.append(queues[project].pop(0))
        if not queues[project]:
            del queues[project]
    if not say:
        return ordered
    firsts: dict[str, Match] = {}
    for match in ordered:
        firsts.setdefault(match.project, match)
    heads = list(firsts.values())
    decided_by_home = _home(heads[0], home)
    out: list[Match] = []
    for match in ordered:
        others = [head for head in heads if head.project != match.project]
        first = match.project == heads[0].project
        reason = _reason(match, others, first=first, home=decided_by_home)
        out.append(msgspec.structs.replace(match, confident=False, why=[*match.why, reason]))
    return out


def _preference(match: Match) -> tuple[tuple[int, ...], str, int]:
    return likelihood(site_ref(match)), match.file, match.line


def _reason(match: Match, others: Sequence[Match], *, first: bool, home: bool) -> str:
    named = ", ".join(f"{o.project} {o.version} ({o.file}:{o.line})" for o in others[:_NAMED])
    more = f" and {len(others) - _NAMED} more" if len(others) > _NAMED else ""
    head = f"the paste fits {named}{more} as well: nothing in it tells which project raised it"
    shown = match if first else others[0]  # (the first result is its project's first)
    why = "the class is written with its package" if home else "the likelier way in"
    return f"{head}; {shown.project}'s {shown.function} is shown first: {why}"
