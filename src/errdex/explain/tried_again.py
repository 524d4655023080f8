"""A guard before a `try` whose other branch runs the `try`'s own call: no way out.

vllm's `IpcModelLoader._daemon_memory` warns "Cannot query weight cache daemon memory"
when `self._query_daemon_memory()` fails in its `try`; the `try` runs only past
`if not self.fallback: return self._with_startup_wait(self._query_daemon_memory)`.
Turning the `fallback` key off does not make the daemon answer: that branch runs the same
query (handed to a retry loop), without the handler that logged the failure, so a daemon
that does not answer becomes an error there. The site is reached because a call of the
`try` failed; a test before the `try` only picks where that call runs.

Read statically in the site's function (already parsed for the page): the site is under
an `except` of a `try` of its own function whose body is one call of a method of the
object's own (`return self.m(x)`: that call is what failed), the guard is above that
`try`, and the branch a way out takes calls that method (`self.m(...)`) or hands it to a
call (`wait(self.m)`). A `try` of more statements is not read: which of its calls failed
is not known, and a branch that calls one of them (`return Info(content=self.text(x))`)
need not meet the failure.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.explain.parsed_value import try_of
from errdex.explain.refused_ways import if_at
from errdex.extract.conditions import dotted_name
from errdex.facts import BRANCH_KINDS

# The statements whose value the `try`'s one call may be.
_CALLING = (ast.Return, ast.Expr, ast.Assign, ast.AnnAssign)

__all__ = ["runs_tried_call", "tried_sentence"]


def runs_tried_call(condition: ConditionView, facts: Facts) -> bool:
    """Whether the branch the way out of `condition` takes runs a call the `try` whose
    handler holds the site made (see the module)."""
    return _tried_again(condition, facts) is not None


def tried_sentence(facts: Facts, held: list[ConditionView]) -> tuple[str | None, set[int]]:
    """What "What it means" says of the guards whose other branch runs the failed call
    again, and their lines (said here, not among the guards that fail as well)."""
    found = [(c, named) for c in held if (named := _tried_again(c, facts)) is not None]
    if not found:
        return None, set()
    name, tried_line = found[0][1]
    lines = sorted({c.line for c, _ in found})
    which = (
        f"The guard at line {lines[0]} is no way out: its other branch runs"
        if len(lines) == 1
        else f"The guards at lines {', '.join(map(str, lines))} are no way out: their other "
        "branches run"
    )
    return (
        f"{which} `{name}` too, the call whose failure the `try` at line {tried_line} "
        "caught here, without this handler: what made it fail fails there as well.",
        set(lines),
    )


def _tried_again(condition: ConditionView, facts: Facts) -> tuple[str, int] | None:
    """The method of the `try` (and the `try`'s line) that the branch the way out of
    `condition` takes calls or hands on, once per condition and page."""
    key = f"tried_again:{condition.line}:{condition.holds}"
    return facts.once(key, lambda: _branch_runs(condition, facts))


def _branch_runs(condition: ConditionView, facts: Facts) -> tuple[str, int] | None:
    if condition.kind not in BRANCH_KINDS:
        return None
    clause = facts.innermost_except()
    if clause is None or condition.line >= clause.line:
        return None
    tried = facts.once("tried_calls", lambda: _tried_calls(facts, clause.line))
    if tried is None or condition.line >= tried[0]:
        return None  # no such `try` of the function, or the guard is inside it
    guard = if_at(facts, condition.line)
    if guard is None:
        return None
    block = guard.orelse if condition.holds else guard.body  # the branch the way out takes
    for statement in block:
        for node in walk(statement):
            if not isinstance(node, ast.Call):
                continue
            for named in (node.func, *node.args, *(k.value for k in node.keywords)):
                if dotted_name(named) == tried[2]:
                    return tried[2], tried[1]
    return None


def _tried_calls(facts: Facts, handler_line: int) -> tuple[int, int, str] | None:
    """The first line of the `try` whose handler is on `handler_line`, the line of its
    body, and the method of the object's own its body is one call of (`return self.m(x)`,
    `self.m(x)`, `y = self.m(x)`): None for a `try` doing more, where which call failed
    is not known."""
    function = facts.site_function()
    found = try_of(function, handler_line) if function is not None else None
    if found is None or len(found[0].body) != 1:
        return None
    node = found[0]
    statement = node.body[0]
    value = statement.value if isinstance(statement, _CALLING) else None
    if isinstance(value, ast.Await):
        value = value.value
    if not isinstance(value, ast.Call):
        return None
    name = dotted_name(value.func)
    if name is None or not name.startswith("self.") or name.count(".") != 1:
        return None
    return node.lineno, statement.lineno, name
