"""A `for` loop that returns from its function, before a site: the site runs only when the
loop ran out without returning (`for c in CHOICES: if value == c: return c` then
`raise ValueError(value)`: raised when no item of CHOICES equals the value).

The walker adds a step of kind `ConditionKind.NO_MATCH` after such a loop; its condition
says which loop, and, when the loop's body is one `if`/`elif` chain whose every branch
returns, what no item passed: `not any(value == c for c in CHOICES)`, a Python
expression the linker binds to a caller's arguments like any guard.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.facts import Condition, ConditionKind

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Tests that need parentheses to be one operand of `or` (an `and` is kept whole to read).
_LOOSER_THAN_OR = (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)


def returns_from(loop: ast.For | ast.AsyncFor) -> bool:
    """Whether the loop's body holds a `return` of the function it is in (not of a function
    or class defined inside it). A loop with an `else` is left out: what follows it may run
    only after a `break`."""
    return not loop.orelse and _holds_return(loop.body)


def _holds_return(block: list[ast.stmt]) -> bool:
    """Whether a statement of the block, or of the blocks it opens, is a `return`. Only
    statements are visited (a `return` is one): expressions are most of a body's nodes."""
    for stmt in block:
        if stmt.__class__ is ast.Return:
            return True
        if isinstance(stmt, _SCOPES):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if inner and _holds_return(inner):
                return True
        # an except clause's block, a case's
        for part in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
            if _holds_return(part.body):
                return True
    return False


def no_match_condition(
    loop: ast.For | ast.AsyncFor, source_of: Callable[[ast.AST], str]
) -> Condition:
    """The condition that holds after `loop`: its header as the test; as its text, `not
    any(TEST for TARGET in ITERABLE)` when the body is one `if` chain of tests each of
    whose branches returns (`matched_tests`), else the header (the loop ran
    out, whatever its body tested)."""
    target, iterable = source_of(loop.target), source_of(loop.iter)
    if isinstance(loop.iter, ast.Tuple) and not iterable.startswith("("):
        iterable = f"({iterable})"  # `for x in a, b:` (a generator needs the parentheses)
    header = f"for {target} in {iterable}"
    tests = matched_tests(loop)
    text = header
    if tests is not None and not isinstance(loop.target, ast.Starred):
        joined = " or ".join(
            f"({source_of(t)})" if isinstance(t, _LOOSER_THAN_OR) else source_of(t) for t in tests
        )
        # a tuple target is written bare in a generator (`for k, v in d.items()`)
        text = f"not any({joined} for {target} in {iterable})"
    return Condition(
        test=header, kind=ConditionKind.NO_MATCH, holds=False, line=loop.lineno, text=text
    )


def matched_tests(loop: ast.For | ast.AsyncFor) -> list[ast.expr] | None:
    """The tests on which the loop returns from its function, when its body is a single
    `if`/`elif` chain with no `else` whose every branch returns; None for any other body
    (the loop may stop early, raise, or return on a test the body computes first)."""
    body = loop.body
    if len(body) != 1 or not isinstance(body[0], ast.If) or loop.orelse:
        return None
    tests: list[ast.expr] = []
    branch: ast.If = body[0]
    while True:
        if not _returns(branch.body):
            return None
        tests.append(branch.test)
        orelse = branch.orelse
        if not orelse:
            break
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            branch = orelse[0]
            continue
        return None  # an `else`: every item returns, or some do not; either way no test
    return tests


def _returns(block: list[ast.stmt]) -> bool:
    """Whether the block always returns from the function (a `return` last, or an `if`
    whose branches both do); a branch that raises is no match the loop returns on."""
    last = block[-1] if block else None
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If) and last.orelse:
        return _returns(last.body) and _returns(last.orelse)
    return False
