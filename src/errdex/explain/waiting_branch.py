"""A guard whose other branch waits for the condition the raise reports: no way out.

SQLAlchemy's `Queue.get` raises `Empty` under `if not block: if self._empty():`; with
`block=True` it runs `while self._empty(): self.not_empty.wait()` instead, and with a
timeout the same loop raises `Empty` when the time runs out. "Pass `block=True`" does not
avoid the empty queue: the call waits for it to fill, forever when nothing fills it (the
pool's `dispose` drains the queue with `get(False)` until `Empty`, and would hang). The
raise is how the non-blocking call reports the condition; the branch that does not raise
only waits for it to clear. Likewise "leave `timeout` out" picks the loop with no limit.

Read statically in the site's function (already parsed for the page): the branch a way
out takes cannot run to its end or leave but through a `while` loop whose test is one the
site's path holds true after the guard (`self._empty()`), whose body waits (a `wait`,
`sleep`, `join`, `poll`...) and has no early exit, or through a raise.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TypeGuard

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.explain.plain import code
from errdex.explain.refused_ways import if_at, may_leave
from errdex.facts import BRANCH_KINDS, ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["WaitingBranch", "waiting_branches", "waiting_sentence", "waits_instead"]

# calls that wait for another thread or process, besides `*wait*` and `*sleep*`
_WAITS = frozenset({"join", "poll", "select", "acquire", "sched_yield"})
# the conditions whose truth on the path a loop may wait on
_HELD_TRUE = frozenset({ConditionKind.IF, ConditionKind.ELIF, ConditionKind.LOOP})


@dataclass(frozen=True)
class WaitingBranch:
    """A guard whose other branch waits in a loop on what the site's path holds."""

    line: int  # the guard's
    holds: bool  # the guard's truth on the path
    test: str  # the loop's test, as written
    loop_line: int


def waiting_branches(facts: Facts) -> list[WaitingBranch]:
    """The held guards of the site's function whose other branch waits for the
    condition the site reports (worked out once a page)."""
    return facts.once("waiting_branch", lambda: _waiting(facts))


def waits_instead(condition: ConditionView, facts: Facts) -> bool:
    """Whether the way out of `condition` only waits for what the site reports."""
    return any(
        w.line == condition.line and w.holds == condition.holds for w in waiting_branches(facts)
    )


def _waiting(facts: Facts) -> list[WaitingBranch]:
    conditions = facts.conditions
    if facts.stored.site.kind is not SiteKind.RAISE or len(conditions) < 2:
        return []
    if not any(c.kind in BRANCH_KINDS for c in conditions[:-1]):
        return []
    if facts.source_text is None or "while" not in facts.source_text:
        return []
    found = []
    for index, condition in enumerate(conditions[:-1]):
        if condition.kind not in BRANCH_KINDS:
            continue
        tests = {
            ast.dump(test): later.test
            for later in conditions[index + 1 :]
            if later.holds
            and later.kind in _HELD_TRUE
            and (test := parse_expression(later.test)) is not None
        }
        guard = if_at(facts, condition.line)
        if not tests or guard is None:
            continue
        block = guard.orelse if condition.holds else guard.body
        held, loop = _held_up(block, tests)
        if held and loop is not None:
            found.append(
                WaitingBranch(
                    condition.line, condition.holds, tests[ast.dump(loop.test)], loop.lineno
                )
            )
    return found


def _held_up(block: list[ast.stmt], tests: dict[str, str]) -> tuple[bool, ast.While | None]:
    """(whether no way through `block` runs to its end or leaves it early but through a
    waiting loop on one of `tests` or a raise; the first such loop)."""
    for statement in block:
        if _waits(statement, tests):
            return True, statement
        if isinstance(statement, ast.Raise):
            return True, None
        if isinstance(statement, ast.If):
            body, body_loop = _held_up(statement.body, tests)
            rest, rest_loop = _held_up(statement.orelse, tests)
            if body and rest:
                return True, body_loop or rest_loop
        elif isinstance(statement, ast.With | ast.AsyncWith):
            held, loop = _held_up(statement.body, tests)
            if held:
                return True, loop
        if may_leave(statement):
            return False, None
    return False, None


def _waits(statement: ast.stmt, tests: dict[str, str]) -> TypeGuard[ast.While]:
    """A `while` on one of `tests` with no `else`, nothing in its body that may leave
    early, and a call that waits in it (`self.not_empty.wait()`, `time.sleep(...)`): it
    ends only when something else clears its test (or by a raise). A loop that works the
    condition off itself (`while self._empty(): self._load()`) is a way out."""
    return (
        isinstance(statement, ast.While)
        and ast.dump(statement.test) in tests
        and not statement.orelse
        and not any(may_leave(s) for s in statement.body)
        and any(_waiting_call(n) for s in statement.body for n in walk(s))
    )


def _waiting_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return "wait" in name or "sleep" in name or name in _WAITS


def waiting_sentence(found: list[WaitingBranch]) -> str | None:
    """What "What it means" says of the guards whose other branch waits instead."""
    said = [
        f"The guard at line {w.line} is no way out: its other branch waits in "
        f"{code('while ' + w.test)} (line {w.loop_line}), the condition this raise reports, "
        "so taking it does not avoid that condition: the call waits for something else to "
        "clear it instead of saying so, and hangs if nothing does."
        for w in found[:2]
    ]
    return " ".join(said) or None
