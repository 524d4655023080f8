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
import re

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_names
from errdex.link.expression_texts import parse_expression
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


def twin_line(
    condition: ConditionView, facts: Facts, named: set[str] | None = None
) -> tuple[int, str] | None:
    """The line of a twin check that making `condition` false can lead to, with the test
    that takes the twin's branch; None when there is none. `named`: the names a way out
    speaks of (its code words): of an `and` of tests, it makes false those reading them,
    and a twin whose path holds one of those is not reached."""
    flipped = _flipped(condition, named)
    # the names the way out changes: those of the tests it makes false, when known
    names = set().union(*map(_varying, flipped)) if flipped else _varying(condition.test)
    if not names:
        return None
    ours = _spread(frozenset((c.test, c.holds) for c in facts.conditions))
    for line, twin in facts.twin_paths:
        path = _spread(twin)
        differ = ours ^ path
        if (condition.test, condition.holds) not in differ:
            continue  # the twin's path holds the condition as well: no way there by it
        if any((part, True) in path for part in flipped):
            continue  # the twin needs what the way out makes false
        # what the twin's path needs that this one does not hold: the way out must be able
        # to bring it about (a test of the names it changes). A twin needing nothing more
        # is not said to be reached: the paths read lose early exits (a `return` when all
        # requests are greedy keeps vllm's rejection sampler from its second assert)
        needed = sorted(path - ours)
        if needed and all(_varying(test) & names for test, _ in needed):
            taken = [t for t, holds in needed if holds] or [f"not ({t})" for t, _ in needed]
            # a part of an `and` also listed is said once, in its `and`
            taken = [t for t in taken if not any(t in _conjuncts(o) for o in taken)]
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
        named = set(re.findall(r"`([^`]+)`", solution.text))
        if condition is not None and twin_line(condition, facts, named) is not None:
            if condition not in facts.twinned:
                facts.twinned.append(condition)
            continue
        out.append(solution)
    return out


def _spread(tests: frozenset[tuple[str, bool]]) -> frozenset[tuple[str, bool]]:
    """The tests with each `and` that holds also as its parts (one path writes
    `a and b` where another tests `b` alone)."""
    out = set(tests)
    for test, holds in tests:
        if holds:
            out.update((part, True) for part in _conjuncts(test))
    return frozenset(out)


def _conjuncts(test: str) -> list[str]:
    node = parse_expression(test)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [ast.unparse(v) for v in node.values]
    return []


def _flipped(condition: ConditionView, named: set[str] | None) -> list[str]:
    """The tests of an `and` that holds which a way out speaking of `named` makes false
    (none known: every one)."""
    parts = _conjuncts(condition.test) if condition.holds else []
    if not parts or not named:
        return []
    hit = [p for p in parts if any(_names_it(n, w) for n in _varying(p) for w in named)]
    return hit if len(hit) < len(parts) else []


def _names_it(name: str, word: str) -> bool:
    """Whether a way out's code word names `name`: itself, an object it is an attribute
    of (`self.mamba_config` for `self.mamba_config.backend`), or its last part (the
    argument `use_head_wise_attn_gate` for `self.use_head_wise_attn_gate`)."""
    return name == word or name.startswith(word + ".") or name.endswith("." + word)


def _varying(test: str) -> set[str]:
    """The names a test reads that a value can change: not constants, not builtins."""
    node = parse_expression(test)
    if node is None:
        return set()
    names = dotted_names(node)
    return {n for n in names if n not in _BUILTINS and not n.rsplit(".", 1)[-1].isupper()}
