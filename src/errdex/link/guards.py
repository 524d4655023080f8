"""A helper's guard seen from one call: parameters replaced by the call's arguments.

`def check(ok, msg): if not ok: raise ValueError(msg)` called as `check(n > 0, "...")`
raises when `not n > 0`; `_render(kind="thinking")` never reaches a final `else` that only
unknown kinds reach. Conditions that become comparisons of literals are decided here.
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from errdex.ast_walk import walk
from errdex.extract.quick_unparse import quick_unparse
from errdex.facts import Condition, ConditionKind
from errdex.link.expression_texts import parse_expression

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


# The same guard is bound to the same arguments at every call of a helper that passes them
# alike, and one argument's source is bound into every expression of the helper: what a
# text becomes under given arguments is worked out once (a parse of the text and of each
# argument, made again per call otherwise).
_MEMO_SIZE = 1 << 14


def bind_guard(condition: Condition, arguments: Mapping[str, str]) -> tuple[Condition, bool | None]:
    """The condition with parameters replaced by argument sources, and its truth if decided."""
    if condition.kind is ConditionKind.NO_MATCH and condition.statement.startswith("for "):
        # a loop that ran out, whatever it tested (`loop_exits.py`): its iterable bound
        target, _, iterable = condition.statement[4:].partition(" in ")
        bound = f"for {target} in {bind_expression(iterable, arguments)}"
        return msgspec.structs.replace(condition, text=bound), None
    statement = condition.statement
    given = tuple(arguments.items())
    if statement.isascii():
        # An argument whose source does not parse leaves the guard unbound, named in it or
        # not; of the others only those it names are put in (a name of ASCII source is
        # written as it is read): the helper's guards naming none of the arguments of a
        # call are bound once for all its calls, not parsed again per message passed.
        if any(parse_expression(source) is None for _, source in given):
            return condition, None
        given = tuple((name, source) for name, source in given if name in statement)
    text, decided = _bound_guard(statement, given)
    if text is None:
        return condition, None
    return msgspec.structs.replace(condition, text=text), decided


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _bound_guard(
    statement: str, arguments: tuple[tuple[str, str], ...]
) -> tuple[str | None, bool | None]:
    """The text of the guard bound to the arguments (None when it cannot be bound or
    written), and its truth if decided."""
    bound = _bind(statement, dict(arguments))
    text = None if bound is None else _unparse(bound)
    if bound is None or text is None:
        return None, None
    truth = _decide(bound)
    return text, None if truth is _UNDECIDED else bool(truth)


def bind_expression(expression: str, arguments: Mapping[str, str]) -> str:
    """`len(shape)` seen from a call that passes `meta.shape`: `len(meta.shape)`.

    The expression as it was when it names no parameter (or cannot be parsed), so that
    only a real substitution changes how it is written.
    """
    # A name of ASCII source is written as it is read (another script's may be normalized):
    # an expression none of whose parameters' names appear in it names none of them.
    if expression.isascii() and not any(name in expression for name in arguments):
        return expression
    return _bound_expression(expression, tuple(arguments.items()))


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _bound_expression(expression: str, arguments: tuple[tuple[str, str], ...]) -> str:
    bound = _bind(expression, dict(arguments), only_if_named=True)
    text = None if bound is None else _unparse(bound)
    return expression if text is None else text


def _unparse(node: ast.expr) -> str | None:
    """The node written as source; None where this Python cannot write it: before 3.12 an
    f-string's expression part may hold no backslash, which an argument's source can bring
    in (`f"{sep}"` given `'\\n'`)."""
    try:
        quick = quick_unparse(node)  # most guards: without `ast.unparse`'s visitor
        return quick if quick is not None else ast.unparse(node)
    except ValueError:
        return None


def _bind(
    expression: str, arguments: Mapping[str, str], *, only_if_named: bool = False
) -> ast.expr | None:
    try:
        tree = ast.parse(expression, mode="eval").body  # its own: the replacing changes it
        if only_if_named and not any(
            isinstance(node, ast.Name) and node.id in arguments for node in walk(tree)
        ):
            return None
    except (SyntaxError, ValueError, RecursionError):
        return None
    # the arguments' trees are put in as they are, never changed: shared parses do
    values: dict[str, ast.expr] = {}
    for name, src in arguments.items():
        value = parse_expression(src)
        if value is None:
            return None
        values[name] = value
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
