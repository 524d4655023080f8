"""A re-raise whose guard only picks how a caught error is reported: no way out.

click's `BaseCommand.main` catches `ClickException` and, when `standalone_mode` is off,
re-raises it; otherwise it shows the same error and calls `sys.exit(e.exit_code)`. Turning
the re-raise off does not avoid the error: the handler's other path ends the program (or
raises) on the same caught exception. So the `if` that picks the bare `raise` is no way
out, whatever setting or argument decides it. What failed is the exception the `try`
raised: its own message and the traceback's frames below say what to fix, and a page with
nothing else to offer says that rather than calling the check one worth reporting.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.extract.shapes import is_exit_call
from errdex.facts import ConditionKind, SiteKind

__all__ = ["PASSED_ON", "PASSED_ON_BARE", "handler_of", "holds", "is_reraise", "reraise_gate"]

PASSED_ON = (
    "So no solution is offered here: the site passes on the exception the `try` raised, "
    "and that exception's own message (and the traceback's frames below this one) says "
    "what failed and with which input."
)

# The same, for a caught class the package raises only with no message (click's `Abort`,
# raised on Ctrl+C or at the end of input): there is no message to read.
PASSED_ON_BARE = (
    "So no solution is offered here: the site passes on the exception the `try` raised, "
    "a class the package raises only with no message, to stop rather than to say what "
    "failed; the traceback's frames below this one show where it was raised."
)

_Def = ast.FunctionDef | ast.AsyncFunctionDef


def is_reraise(facts: Facts) -> bool:
    """A bare `raise` (or a raise of the caught name) in an `except` clause."""
    site = facts.stored.site
    return site.kind == SiteKind.RERAISE and any(
        c.kind == ConditionKind.EXCEPT for c in facts.conditions
    )


def reraise_gate(condition: ConditionView, facts: Facts) -> bool:
    """Whether `condition` is an `if` inside the site's `except` clause whose other path
    (its `else`, then the clause's statements after it) raises or exits before returning."""
    if condition.kind not in (ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE):
        return False
    if not is_reraise(facts):
        return False
    function = facts.site_function()
    if function is None:
        return False
    line = facts.stored.site.line
    handler = handler_of(function, line)
    if handler is None:
        return False
    block = handler.body
    for index, statement in enumerate(block):
        if not isinstance(statement, ast.If) or statement.lineno != condition.line:
            continue
        in_body = holds(statement.body, line)
        if in_body == holds(statement.orelse, line):
            return False  # the site is on neither side, or deeper than one `if`
        other = statement.orelse if in_body else statement.body
        return _ends_in_failure([*other, *block[index + 1 :]])
    return False


def handler_of(function: _Def, line: int) -> ast.ExceptHandler | None:
    """The innermost `except` clause holding `line`."""
    best: ast.ExceptHandler | None = None
    for node in walk(function):
        if isinstance(node, ast.ExceptHandler):
            inside = node.lineno <= line <= (node.end_lineno or node.lineno)
            if inside and (best is None or node.lineno > best.lineno):
                best = node
    return best


def holds(body: list[ast.stmt], line: int) -> bool:
    return any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in body)


def _ends_in_failure(statements: list[ast.stmt]) -> bool:
    """Whether running `statements` in order meets a `raise` or an exit call before any
    return, loop or branch (where the path could leave without failing)."""
    for statement in statements:
        if isinstance(statement, ast.Raise):
            return True
        if (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Call)
            and is_exit_call(statement.value)
        ):
            return True
        if not isinstance(statement, ast.Expr | ast.Assign | ast.AnnAssign | ast.AugAssign):
            return False  # a return, a branch, a loop: a path that may not fail
    return False
