"""The locals a raise passes that are surely truthy there: what the exception's `__str__`
may test before it adds a part (`if self.allowed: message += ...`).

A local is surely truthy when the raise is under `if name:` (or past `if not name:
return`), when its last value is a non-empty literal or display, or when a fallback gave
it one after that value (`allowed = ...; if not allowed: allowed = {"<END-OF-FILE>"}`, which
is `allowed = ... or {"<END-OF-FILE>"}`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from errdex.extract.scope import Scope, Step
from errdex.facts import Arg, ConditionKind

__all__ = ["surely_truthy", "truthy_arguments"]


def truthy_arguments(
    args: Iterable[Arg], scope: Scope, blocks: tuple[int, ...], line: int, path: tuple[Step, ...]
) -> tuple[str, ...]:
    """The locals among `args` (passed as themselves: `allowed=allowed`) surely truthy at
    `line`, the raise, in the blocks `blocks` along `path`."""
    names = dict.fromkeys(a.source for a in args if a.source.isidentifier())
    return tuple(
        name
        for name in names
        if _tested(name, path) or _last_value_truthy(name, scope, blocks, line)
    )


def surely_truthy(node: ast.expr) -> bool:
    """A value whose truth Python knows from its source: non-empty text, a non-zero number,
    `True`, a non-empty display; `a or b` when one of them is."""
    if isinstance(node, ast.Constant):
        return bool(node.value) and node.value is not Ellipsis
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return bool(node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.keys)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and v.value for v in node.values)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return any(surely_truthy(v) for v in node.values)
    return False


# Steps whose node is no test of the path (a loop, an except clause, a `with`).
_NOT_TESTS = frozenset(
    {ConditionKind.LOOP, ConditionKind.NO_MATCH, ConditionKind.EXCEPT, ConditionKind.WITH}
)


def _tested(name: str, path: tuple[Step, ...]) -> bool:
    """The path holds `name` true: `if name:` (or `name and ...`) taken, or `if not name:`
    not taken (an early exit, an `else`)."""
    for step in path:
        if step.kind in _NOT_TESTS:
            continue
        test = step.node
        if step.holds and _names(test, name):
            return True
        if not step.holds and _negates(test, name):
            return True
    return False


def _names(test: ast.AST, name: str) -> bool:
    if isinstance(test, ast.Name):
        return test.id == name
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_names(v, name) for v in test.values)
    return False


def _negates(test: ast.AST, name: str) -> bool:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Name) and test.operand.id == name
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(_negates(v, name) for v in test.values)
    return False


def _last_value_truthy(name: str, scope: Scope, blocks: tuple[int, ...], line: int) -> bool:
    """The last assignment of `name` before `line` gives a truthy value: one in a block
    enclosing `line`, or the fallback of an `if not name:` at such a block."""
    for assigned in reversed(scope.assigns.get(name, ())):
        if assigned.line > line:
            continue
        value = assigned.value
        if value is None:
            return False  # a parameter's binding
        if blocks[: len(assigned.blocks)] == assigned.blocks:
            return surely_truthy(value)
        outer = assigned.blocks[:-1]
        last = assigned.path[-1] if assigned.path else None
        return (
            last is not None
            and last.kind is ConditionKind.IF
            and last.holds
            and _negates(last.node, name)
            and blocks[: len(outer)] == outer
            and surely_truthy(value)
        )
    return False
