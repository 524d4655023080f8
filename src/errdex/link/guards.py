"""A helper's guard seen from one call: parameters replaced by the call's arguments.

`def check(ok, msg): if not ok: raise ValueError(msg)` called as `check(n > 0, "...")`
raises when `not n > 0`; `_render(kind="thinking")` never reaches a final `else` that only
unknown kinds reach. Conditions that become comparisons of literals are decided here.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from errdex.ast_walk import walk
from errdex.facts import Condition

_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_UNDECIDED = object()
# The builtin types a literal can be checked against (`isinstance("auto", str)`).
_TYPES: dict[str, type] = {
    t.__name__: t for t in (str, int, float, bool, bytes, complex, tuple, list, dict, set)
}


class _Replace(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.values.get(node.id, node)


def bind_guard(condition: Condition, arguments: Mapping[str, str]) -> tuple[Condition, bool | None]:
    """The condition with parameters replaced by argument sources, and its truth if decided."""
    bound = _bind(condition.statement, arguments)
    if bound is None:
        return condition, None
    text = _unparse(bound)
    if text is None:
        return condition, None
    truth = _decide(bound)
    decided = None if truth is _UNDECIDED else bool(truth)
    return msgspec.structs.replace(condition, text=text), decided


def bind_expression(expression: str, arguments: Mapping[str, str]) -> str:
    """`len(shape)` seen from a call that passes `meta.shape`: `len(meta.shape)`.

    The expression as it was when it names no parameter (or cannot be parsed), so that
    only a real substitution changes how it is written.
    """
    bound = _bind(expression, arguments, only_if_named=True)
    text = None if bound is None else _unparse(bound)
    return expression if text is None else text


def _unparse(node: ast.AST) -> str | None:
    """The node written as source; None where this Python cannot write it: before 3.12 an
    f-string's expression part may hold no backslash, which an argument's source can bring
    in (`f"{sep}"` given `'\\n'`)."""
    try:
        return ast.unparse(node)
    except ValueError:
        return None


def _bind(
    expression: str, arguments: Mapping[str, str], *, only_if_named: bool = False
) -> ast.expr | None:
    try:
        tree = ast.parse(expression, mode="eval").body
        if only_if_named and not any(
            isinstance(node, ast.Name) and node.id in arguments for node in walk(tree)
        ):
            return None
        values = {name: ast.parse(src, mode="eval").body for name, src in arguments.items()}
    except (SyntaxError, ValueError, RecursionError):
        return None
    bound: ast.expr = _Replace(values).visit(tree)
    return bound


def _decide(node: ast.expr) -> Any:
    """Evaluate an expression made only of literals and comparisons; else `_UNDECIDED`."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = [_decide(e) for e in node.elts]
        return _UNDECIDED if any(i is _UNDECIDED for i in items) else tuple(items)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        value = _decide(node.operand)
        return _UNDECIDED if value is _UNDECIDED else not value
    if isinstance(node, ast.BoolOp):
        values = [_decide(v) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is not _UNDECIDED and not v for v in values):
                return False
            return _UNDECIDED if any(v is _UNDECIDED for v in values) else True
        if any(v is not _UNDECIDED and v for v in values):
            return True
        return _UNDECIDED if any(v is _UNDECIDED for v in values) else False
    if isinstance(node, ast.Call) and _is_isinstance(node):
        # Only a plain literal: `_decide` gives a list literal as a tuple.
        value, kinds = node.args[0], _types(node.args[1])
        if not isinstance(value, ast.Constant) or kinds is None:
            return _UNDECIDED
        return isinstance(value.value, kinds)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        compare = _COMPARE.get(type(node.ops[0]))
        left, right = _decide(node.left), _decide(node.comparators[0])
        if compare is None or left is _UNDECIDED or right is _UNDECIDED:
            return _UNDECIDED
        try:
            return compare(left, right)
        except TypeError:
            return _UNDECIDED
    return _UNDECIDED


def _is_isinstance(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Name) and func.id == "isinstance" and len(call.args) == 2


def _types(node: ast.expr) -> tuple[type, ...] | None:
    """The builtin types `isinstance`'s second argument names, or None for any other."""
    names = node.elts if isinstance(node, ast.Tuple) else [node]
    found = [_TYPES.get(n.id) if isinstance(n, ast.Name) else None for n in names]
    return None if None in found else tuple(t for t in found if t is not None)
