"""`ast.unparse` of the small expressions most tests are made of, without its visitor.

A negated condition's text is `ast.unparse` of the negated test (`x is not None`), written
for every condition that does not hold on a site's path: tens of thousands over a large
codebase, each through a new `ast._Unparser`, its dispatch and its precedence table. The
tests are mostly names, attribute chains, plain constants, calls of those, comparisons and
`not`/`and`/`or` of them, arithmetic, subscripts and literal tuples, lists and sets: those
are written here as `ast.unparse` writes them (its parentheses by the same precedence
rules), and anything else is left to it (None).
"""

from __future__ import annotations

import ast
import math

__all__ = ["quick_unparse"]

# `ast._Precedence`'s levels that these expressions meet: what an expression's context
# asks of it, and its own, which needs parentheses when lower than its context's.
_TUPLE, _TEST, _OR, _AND, _NOT, _CMP, _EXPR, _FACTOR, _POWER, _ATOM = (
    2,
    4,
    5,
    6,
    7,
    8,
    9,
    15,
    16,
    18,
)
# Binary operators: their text and level (`ast._Unparser.binop_precedence`).
_BINOPS: dict[type[ast.operator], tuple[str, int]] = {
    ast.Add: ("+", 13),
    ast.Sub: ("-", 13),
    ast.Mult: ("*", 14),
    ast.MatMult: ("@", 14),
    ast.Div: ("/", 14),
    ast.Mod: ("%", 14),
    ast.FloorDiv: ("//", 14),
    ast.LShift: ("<<", 12),
    ast.RShift: (">>", 12),
    ast.BitOr: ("|", 9),
    ast.BitXor: ("^", 10),
    ast.BitAnd: ("&", 11),
    ast.Pow: ("**", _POWER),
}
_SIGNS: dict[type[ast.unaryop], str] = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
_CMPOPS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
# what an attribute or a subscript is taken of
_CHAINED = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)


def quick_unparse(node: ast.expr) -> str | None:
    """`ast.unparse(node)` when the expression is made only of the kinds above, else None."""
    return _text(node, _TEST)


def _text(node: ast.expr, context: int) -> str | None:
    kind = type(node)  # (the parser makes no subclass of a node's class)
    if kind is ast.Name:
        return node.id  # type: ignore[attr-defined, no-any-return]
    if kind is ast.Attribute:
        value = node.value  # type: ignore[attr-defined]
        if type(value) not in _CHAINED:
            return None  # (a number's attribute takes a space: `1 .real`)
        inner = _text(value, _ATOM)
        return None if inner is None else f"{inner}.{node.attr}"  # type: ignore[attr-defined]
    if kind is ast.Constant:
        value = node.value  # type: ignore[attr-defined]
        if node.kind is not None:  # type: ignore[attr-defined]
            return None  # `u"..."`
        if value is None or type(value) in (str, int, bool):
            return repr(value)
        if type(value) is float and math.isfinite(value):
            return repr(value)  # (infinities and NaN are written apart)
        return None  # `...`, tuples, bytes, complex numbers
    if kind is ast.Call:
        return _call(node)  # type: ignore[arg-type]
    if kind is ast.Compare:
        left = _text(node.left, _EXPR)  # type: ignore[attr-defined]
        if left is None:
            return None
        parts = [left]
        for op, right in zip(node.ops, node.comparators, strict=True):  # type: ignore[attr-defined]
            text = _text(right, _EXPR)
            if text is None:
                return None
            parts += (_CMPOPS[type(op)], text)
        return _wrapped(" ".join(parts), context > _CMP)
    if kind is ast.UnaryOp:
        sign = _SIGNS.get(type(node.op))  # type: ignore[attr-defined]
        if sign is not None:  # no space after a sign: `-1`
            operand = _text(node.operand, _FACTOR)  # type: ignore[attr-defined]
            return None if operand is None else _wrapped(sign + operand, context > _FACTOR)
        operand = _text(node.operand, _NOT)  # type: ignore[attr-defined]
        return None if operand is None else _wrapped(f"not {operand}", context > _NOT)
    if kind is ast.BinOp:
        return _binop(node, context)  # type: ignore[arg-type]
    if kind is ast.Subscript:
        return _subscript(node)  # type: ignore[arg-type]
    if kind is ast.Tuple:
        items = _items(node.elts)  # type: ignore[attr-defined]
        if not items:
            return None  # `()`
        joined = items[0] + "," if len(items) == 1 else ", ".join(items)
        return _wrapped(joined, context > _TUPLE)
    if kind is ast.List:
        items = _items(node.elts)  # type: ignore[attr-defined]
        return None if items is None else f"[{', '.join(items)}]"
    if kind is ast.Set:
        items = _items(node.elts)  # type: ignore[attr-defined]
        return f"{{{', '.join(items)}}}" if items else None
    if kind is ast.BoolOp:
        own = _AND if type(node.op) is ast.And else _OR  # type: ignore[attr-defined]
        level, values = own, []
        for value in node.values:  # type: ignore[attr-defined]
            level = min(level + 1, _ATOM)  # each operand asks one level more than the last
            text = _text(value, level)
            if text is None:
                return None
            values.append(text)
        joined = (" and " if own == _AND else " or ").join(values)
        return _wrapped(joined, context > own)
    return None


def _call(node: ast.Call) -> str | None:
    if type(node.func) not in (ast.Name, ast.Attribute):
        return None
    func = _text(node.func, _ATOM)
    if func is None:
        return None
    given: list[str] = []
    for arg in node.args:  # (no context is set on an argument: it stays `_TEST`)
        text = _text(arg, _TEST)
        if text is None:
            return None  # `*args` and the rest
        given.append(text)
    for keyword in node.keywords:
        text = _text(keyword.value, _TEST) if keyword.arg is not None else None
        if text is None:
            return None
        given.append(f"{keyword.arg}={text}")
    return f"{func}({', '.join(given)})"


def _wrapped(text: str, parenthesized: bool) -> str:
    return f"({text})" if parenthesized else text


def _binop(node: ast.BinOp, context: int) -> str | None:
    found = _BINOPS.get(type(node.op))
    if found is None:
        return None
    operator, own = found
    # the left operand may be of the same level (`a - b - c`), the right one must be
    # higher; `**` the other way round
    left_level, right_level = (own + 1, own) if own == _POWER else (own, own + 1)
    left = _text(node.left, left_level)
    right = _text(node.right, right_level) if left is not None else None
    if right is None:
        return None
    return _wrapped(f"{left} {operator} {right}", context > own)


def _subscript(node: ast.Subscript) -> str | None:
    if type(node.value) not in _CHAINED:
        return None
    value = _text(node.value, _ATOM)
    index = node.slice
    # `x[a, b]`: the tuple's parentheses are left out
    is_tuple = type(index) is ast.Tuple and bool(index.elts)
    items = [_index(part) for part in (index.elts if is_tuple else [index])]  # type: ignore[attr-defined]
    texts = [item for item in items if item is not None]
    if value is None or len(texts) < len(items):
        return None
    inner = texts[0] + "," if is_tuple and len(texts) == 1 else ", ".join(texts)
    return f"{value}[{inner}]"


def _index(node: ast.expr) -> str | None:
    """An index or a slice (`a:b:c`) of a subscript."""
    if type(node) is not ast.Slice:
        return _text(node, _TEST)
    parts = []
    for part in (node.lower, node.upper):
        text = _text(part, _TEST) if part is not None else ""
        if text is None:
            return None
        parts.append(text)
    if node.step is not None:
        step = _text(node.step, _TEST)
        if step is None:
            return None
        parts.append(step)
    return ":".join(parts)


def _items(nodes: list[ast.expr]) -> list[str] | None:
    """The texts of a literal's items (each at the level a lone expression is written),
    None when one cannot be written here (`*rest`)."""
    out: list[str] = []
    for item in nodes:
        text = _text(item, _TEST)
        if text is None:
            return None
        out.append(text)
    return out
