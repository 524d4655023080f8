"""`ast.unparse` of the small expressions most tests are made of, without its visitor.

A negated condition's text is `ast.unparse` of the negated test (`x is not None`), written
for every condition that does not hold on a site's path: tens of thousands over a large
codebase, each through a new `ast._Unparser`, its dispatch and its precedence table. The
tests are mostly names, attribute chains, plain constants, calls of those, comparisons and
`not`/`and`/`or` of them: those are written here as `ast.unparse` writes them (its
parentheses by the same precedence rules), and anything else is left to it (None).
"""

from __future__ import annotations

import ast

__all__ = ["quick_unparse"]

# `ast._Precedence`'s levels that these expressions meet: what an expression's context
# asks of it, and its own, which needs parentheses when lower than its context's.
_TEST, _OR, _AND, _NOT, _CMP, _EXPR, _ATOM = 4, 5, 6, 7, 8, 9, 18
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
_CHAINED = (ast.Name, ast.Attribute, ast.Call)  # what an attribute or a call is taken of


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
        if node.kind is not None or not (value is None or type(value) in (str, int, bool)):  # type: ignore[attr-defined]
            return None  # `u"..."`, floats (written apart for infinities), `...`, tuples
        return repr(value)
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
    if kind is ast.UnaryOp and type(node.op) is ast.Not:  # type: ignore[attr-defined]
        operand = _text(node.operand, _NOT)  # type: ignore[attr-defined]
        return None if operand is None else _wrapped(f"not {operand}", context > _NOT)
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
