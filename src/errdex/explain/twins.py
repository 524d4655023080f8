"""A twin check: the same test in a sibling branch, which another value of the input reaches.

rich's `Color.downgrade(system)` asserts `self.triplet is not None` in the branch for
`system == ColorSystem.WINDOWS` (line 557) and again, for the same colour, in the branch
for `ColorSystem.STANDARD` (line 546) and `ColorSystem.EIGHT_BIT` (line 520): "pass a
`system` other than WINDOWS" includes STANDARD, which fails the twin. A way out that
changes a condition is not offered when another site of the same function, of the same
kind, exception and message, whose last test (the check itself) is this site's, has a path
that differs from this one only in tests of the names the condition reads: changing those
names' value can lead there, to the same check.
"""

from __future__ import annotations

import ast
import builtins

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_names
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["twin_line", "twin_paths", "twin_sentences", "without_twins"]

_MAX_TWINS = 8
_BUILTINS = frozenset(dir(builtins))

# a twin: its line, and its path's tests (test, holds)
Twin = tuple[int, frozenset[tuple[str, bool]]]


def twin_paths(store: Store, stored: StoredSite) -> list[Twin]:
    """The paths of the function's other sites of the same kind, exception and message
    whose own check (the last test on the path) is this site's."""
    site = stored.site
    exception = stored.exception.name if stored.exception else site.exception
    message = site.message.text if site.message is not None else None
    out: list[Twin] = []
    for neighbour in store.neighbours(stored.version_id, stored.file):
        if (
            neighbour.id == stored.id
            or neighbour.function != site.function
            or neighbour.kind != site.kind
            or neighbour.exception != exception
            or neighbour.message != message
        ):
            continue
        for other in store.get_error(neighbour.id):
            conditions = other.site.conditions
            if (
                other.version_id == stored.version_id
                and other.site.line == neighbour.line
                and conditions
                and site.conditions
                # the same check: its own (last) test as this site's
                and (conditions[-1].test, conditions[-1].holds)
                == (site.conditions[-1].test, site.conditions[-1].holds)
            ):
                tests = frozenset((c.test, c.holds) for c in conditions)
                out.append((neighbour.line, tests))
        if len(out) >= _MAX_TWINS:
            break
    return out


def twin_line(condition: ConditionView, facts: Facts) -> tuple[int, str] | None:
    """The line of a twin check that making `condition` false can lead to, with the test
    that takes the twin's branch; None when there is none."""
    names = _varying(condition.test)
    if not names:
        return None
    ours = frozenset((c.test, c.holds) for c in facts.conditions)
    for line, path in facts.twin_paths:
        differ = ours ^ path
        if (condition.test, condition.holds) not in differ:
            continue  # the twin's path holds the condition as well: no way there by it
        # the twin's own branch: a test of the same names that this path does not take
        # (a twin on a path of fewer tests is another check, met whatever the value)
        own = [(t, holds) for t, holds in sorted(path - ours) if _varying(t) & names]
        if own and all(_varying(test) & names for test, _ in differ):
            # the tests the twin's branch takes; a test it only does not take when none
            taken = [t for t, holds in own if holds] or [f"not ({t})" for t, _ in own]
            return line, " and ".join(taken)
    return None


def twin_sentences(facts: Facts, conditions: list[ConditionView]) -> list[str]:
    """Why changing a condition is no way out, for each that leads to a twin check."""
    out: list[str] = []
    for condition in conditions:
        found = twin_line(condition, facts)
        if found is not None:
            line, taken = found
            out.append(
                f"Making {code(condition.text)} false is no way out: another value can "
                f"take the branch where {code(taken)}, and the same check fails there "
                f"(line {line})."
            )
    return out


def without_twins(kept: list[Solution], facts: Facts) -> list[Solution]:
    """The solutions whose changed condition leads to no twin check (`explain/twins.py`);
    the conditions of the others are kept in `facts.twinned` for the prose."""
    if not facts.twin_paths:
        return kept
    by_text = {c.text: c for c in facts.conditions}
    out: list[Solution] = []
    for solution in kept:
        condition = by_text.get(solution.condition or "")
        if condition is not None and twin_line(condition, facts) is not None:
            if condition not in facts.twinned:
                facts.twinned.append(condition)
            continue
        out.append(solution)
    return out


def _varying(test: str) -> set[str]:
    """The names a test reads that a value can change: not constants, not builtins."""
    try:
        names = dotted_names(ast.parse(test, mode="eval"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return {n for n in names if n not in _BUILTINS and not n.rsplit(".", 1)[-1].isupper()}
