"""Results of several projects that the paste cannot tell apart: the order they are shown
in, and the answer saying so.

A catalog holds many projects, and the same text is often raised by more than one: a copy
(typer carries its own click; `six` lives inside urllib3 and is copied into other
projects), a shared idiom (`not expecting type '{type(s)}'`), a bare class
(`NotImplementedError`). When their results score the same, nothing in the paste (frames,
the class with its module, the printed form, a log prefix) chose between them: which comes
first is then a stated preference, not the order the projects were indexed in, and none of
them is `confident`.

The preference is `same_text.py`'s, applied to each project's first result of the tie: a
public entry point before an internal helper (a package's private copy of another,
`typer/_click/...`, counts as internal), a function of its own before a nested one, fewer
conditions, then file order.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from errdex.match.results import Match
from errdex.match.same_text import SiteRef, likelihood

__all__ = ["order_tied_projects"]

_TIE = 1e-6  # scores this close are the same evidence (as `one_result.py`'s)
_NAMED = 3  # projects named in the reason, at most


def order_tied_projects(matches: Sequence[Match], *, say: bool = True) -> list[Match]:
    """`matches` (ranked) with each run of tied results that spans several projects put in
    the order of the likeliest result of each project; with `say`, every one of them not
    `confident` and the reason in its `why`. A project's own results keep their order.

    Ranking calls it without `say` before it cuts the candidates to the few it settles, so
    that the cut keeps the likeliest of a tie, not the projects indexed last."""
    out: list[Match] = []
    start = 0
    while start < len(matches):
        end = start + 1
        while end < len(matches) and _tied(matches[start], matches[end]):
            end += 1
        out.extend(_ordered_run(matches[start:end], say))
        start = end
    return out


def _tied(first: Match, other: Match) -> bool:
    return (
        abs(first.score - other.score) <= _TIE and first.literal_length() == other.literal_length()
    )


def _ordered_run(run: Sequence[Match], say: bool) -> list[Match]:
    projects: dict[str, list[Match]] = {}
    for match in run:
        projects.setdefault(match.project, []).append(match)
    if len(projects) < 2:
        return list(run)
    blocks = sorted(projects.values(), key=lambda block: _preference(block[0]))
    if not say:
        return [match for block in blocks for match in block]
    heads = [block[0] for block in blocks]
    out: list[Match] = []
    for block in blocks:
        others = [head for head in heads if head.project != block[0].project]
        reason = _reason(block[0], others, first=block is blocks[0])
        out.extend(
            msgspec.structs.replace(match, confident=False, why=[*match.why, reason])
            for match in block
        )
    return out


def _preference(match: Match) -> tuple[tuple[int, ...], str, int]:
    ref = SiteRef(
        id=match.id, version=match.version, file=match.file, line=match.line,
        function=match.function, callers=len(match.site.callers) if match.site else 0,
        conditions=len(match.site.site.conditions) if match.site else 0, kind=match.kind,
        through_helper=match.called_at is not None,
    )  # fmt: skip
    return likelihood(ref), match.file, match.line


def _reason(match: Match, others: Sequence[Match], *, first: bool) -> str:
    named = ", ".join(f"{o.project} {o.version} ({o.file}:{o.line})" for o in others[:_NAMED])
    more = f" and {len(others) - _NAMED} more" if len(others) > _NAMED else ""
    head = f"the paste fits {named}{more} as well: nothing in it tells which project raised it"
    if first:
        return f"{head}; {match.function} is shown first, the likelier way in"
    return f"{head}; {others[0].project}'s {others[0].function} is shown first, the likelier way in"
