"""A guard whose other branch returns the fallback the warning announces: no way out.

vllm's `get_mrope_input_positions` logs "... missing inputs ...; using sequential
positions." and then `return _sequential_positions(seq_len), 0`; its early exit `if ... or
not mm_features: return _sequential_positions(seq_len), 0` returns the very same thing.
"Pass an empty `mm_features`" quiets the warning and changes nothing else: the positions
are sequential either way. A warning reports a fallback the code takes; a way out of it
must avoid that fallback, not take it by another branch.

Read statically in the site's function (already parsed for the page): the statement
right after the warning's call (or after the `if` whose branch it ends) is `return VALUE`,
and the branch a way out takes returns the same `VALUE` (as written), or a constant as true
or false as the path's tests make `VALUE` (`return False` beside `return fits` under `if not
fits:`), before it does anything but calls.

One such guard is a way out all the same: the user's own setting, tested by itself
(`if not envs.VLLM_ENABLE_HPC_OPS: return False`), where a check further on tests the machine.
The user asked for what this machine cannot run; leaving the setting off is their step, and
comes before changing the machine (`machine_refused_setting`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import msgspec

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.environment import MACHINE_TESTED
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.refused_ways import KnownValues, if_in
from errdex.extract.conditions import dotted_names
from errdex.facts import ConditionKind, KnobKind, SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = [
    "SameFallback",
    "fallback_sentence",
    "left_off_here",
    "machine_refused_setting",
    "same_fallbacks",
    "takes_fallback",
]

_BRANCHES = frozenset(
    {ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE, ConditionKind.EARLY_EXIT}
)
_WARNINGS = frozenset({SiteKind.LOG, SiteKind.WARN})
# the statement fields that hold blocks the warning's call may sit in
_BLOCKS = ("body", "orelse", "finalbody")


@dataclass(frozen=True)
class SameFallback:
    """A guard whose other branch returns what the warning's own path returns."""

    line: int  # the guard's
    condition: str  # what holds on the path, as the solutions name it
    value: str  # the value both return, as written


def same_fallbacks(facts: Facts) -> list[SameFallback]:
    """The held guards of the site's function whose other branch returns the fallback the
    warning's path returns (worked out once a page)."""
    return facts.once("same_fallback", lambda: _same(facts))


def takes_fallback(condition: str | None, facts: Facts) -> bool:
    """Whether the way out of the held condition `condition` (its text, as a solution
    names it) only takes the warning's own fallback."""
    return condition is not None and any(f.condition == condition for f in same_fallbacks(facts))


def machine_refused_setting(solution: Solution, kept: list[Solution], facts: Facts) -> bool:
    """Whether `solution` leaves off the user's own setting that the guard tests itself
    (`if not envs.VLLM_ENABLE_HPC_OPS: return False`), where the check past it tests the
    machine (another way out says to run it on other hardware): the user asked for what this
    machine cannot run, and leaving the setting off is the step that is theirs. It takes the
    fallback the warning announces, but that is all the machine allows; changing the machine
    comes after it."""
    if solution.kind != "setting" or solution.knob is None or solution.condition is None:
        return False
    tested = solution.condition.strip()
    own = any(
        k.name == solution.knob
        and k.kind in (KnobKind.ENV, KnobKind.FLAG)
        and k.same_value
        and k.behind is not None
        and tested in (k.behind, f"not {k.behind}")
        for k in facts.knobs
    )
    return own and any(MACHINE_TESTED in s.text for s in kept if s is not solution)


def left_off_here(solution: Solution) -> Solution:
    """The setting left off, said as what it is worth on this machine."""
    text = (
        f"{solution.text.rstrip('.')}: what it turns on cannot run on this machine (a check "
        "further on tests the machine), and with it off the code takes the same fallback "
        "this warning announces, without the warning."
    )
    return msgspec.structs.replace(solution, text=text)


def _same(facts: Facts) -> list[SameFallback]:
    site = facts.stored.site
    if site.kind not in _WARNINGS:
        return []
    if not any(c.kind in _BRANCHES for c in facts.conditions):
        return []
    function = facts.site_function()
    if function is None:
        return []
    fallback = _returned_after(function, site.line)
    if fallback is None:
        return []
    stored = _stored(function)
    found = []
    for condition in facts.conditions:
        if condition.kind not in _BRANCHES:
            continue
        guard = if_in(function, condition.line, test_line=True)
        if guard is None:
            continue
        other = _returned(guard.orelse if condition.holds else guard.body)
        if other is None:
            continue
        if ast.dump(other) != ast.dump(fallback):
            if _as_true(other, fallback, facts):
                found.append(SameFallback(condition.line, condition.text, ast.unparse(other)))
            continue
        assigned = {name for line, name in stored if guard.lineno <= line <= site.line}
        if _tested(fallback, guard.test) or _roots(fallback) & assigned:
            # `return language` under `if language is None ...`: the same words, another
            # value (what the guard tested, or what was assigned since)
            continue
        found.append(SameFallback(condition.line, condition.text, ast.unparse(fallback)))
    return found


def _tested(value: ast.expr, test: ast.expr) -> bool:
    """Whether `value` reads what `test` reads: a name or attribute chain of one that is
    the other's, or begins it (`self.x` and `self.x.y`; not `self.x` and `self.z`)."""
    read = dotted_names(test)
    return any(
        a == b or a.startswith(b + ".") or b.startswith(a + ".")
        for a in dotted_names(value)
        for b in read
    )


def _roots(node: ast.AST) -> set[str]:
    return {c.partition(".")[0] for c in dotted_names(node)}


def _stored(function: ast.AST) -> list[tuple[int, str]]:
    """The names the function assigns, with their lines."""
    return [
        (n.lineno, n.id)
        for n in walk(function)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    ]


def _returned_after(function: ast.FunctionDef, line: int) -> ast.expr | None:
    """The value of the `return` right after the call statement that spans `line` (the
    warning's), in the same block, or, when the call ends a branch of an `if`, right after
    that `if` (`if not fits: logger.warning(...)` then `return fits`); None when another
    statement follows it, or none."""
    found = _after_in(function.body, line)
    return found if isinstance(found, ast.expr) else None


_END = object()  # the warning's call ends its block: what follows the enclosing `if` runs


def _after_in(block: list[ast.stmt], line: int) -> object:
    for index, statement in enumerate(block):
        if not statement.lineno <= line <= (statement.end_lineno or statement.lineno):
            continue
        inner: object = _END if isinstance(statement, ast.Expr) else None
        if isinstance(statement, ast.If):
            inner = _after_in(statement.body, line) or _after_in(statement.orelse, line)
        elif inner is None:
            inner = _inside(statement, line)
        if inner is not _END:
            return inner
        after = block[index + 1] if index + 1 < len(block) else None
        if isinstance(after, ast.Return) and after.value is not None:
            return after.value
        return _END if after is None and isinstance(statement, ast.Expr) else None
    return None


def _inside(statement: ast.stmt, line: int) -> ast.expr | None:
    """In a block of another compound statement (a loop, a `try`, a `with`): only a
    `return` right after the call in the same block (running on past its end is not
    followed)."""
    blocks = [getattr(statement, name, None) for name in _BLOCKS]
    blocks += [h.body for h in getattr(statement, "handlers", ())]
    for block in blocks:
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            found = _after_in(block, line)
            if isinstance(found, ast.expr):
                return found
    return None


def _as_true(other: ast.expr, fallback: ast.expr, facts: Facts) -> bool:
    """Whether the branch returns a constant as true or false as the path makes the value
    returned after the warning (`return False` beside `return fits` under `if not fits:`):
    the caller takes the fallback all the same."""
    if not isinstance(other, ast.Constant):
        return False
    known = KnownValues({})
    for condition in facts.conditions:
        node = parse_expression(condition.test)
        if node is not None:
            known.learn(node, condition.holds)
    later = known.truth_of(fallback)
    return later is not None and later == bool(other.value)


def _returned(block: list[ast.stmt]) -> ast.expr | None:
    """The value a block returns before doing anything but calls (a log line of its own);
    None when it does anything else first, or runs on."""
    for statement in block:
        if isinstance(statement, ast.Return):
            return statement.value
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            return None
    return None


def fallback_sentence(facts: Facts) -> str | None:
    """What "What it means" says of the guards a way out taken away took (`facts.fallen`)."""
    taken = {s.condition for s in facts.fallen}
    said = [
        f"The guard at line {f.line} is no way out: its other branch returns "
        f"{code(f.value)} too, the fallback this warning announces, so taking it only hides "
        "the warning."
        for f in same_fallbacks(facts)
        if f.condition in taken
    ]
    return " ".join(said[:2]) or None
