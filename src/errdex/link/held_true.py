"""The names and attributes a condition holds true as a whole: what a truth test of a
setting can be read from (`if a and b.c:` holds `a` and `b.c`; an early exit `if not a or
x < 1: return` holds `a` after it)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from errdex.extract.quick_unparse import quick_unparse
from errdex.link.expression_texts import parse_expression

__all__ = ["held_true", "positive_parts", "written"]


def positive_parts(text: str) -> list[str]:
    """The names and attributes a condition holds true as a whole (`a and b.c` → `a`,
    `b.c`; `not (not a or x < 1)` → `a`)."""
    return list(_positive_parts(text))


@functools.lru_cache(maxsize=1 << 14)
def _positive_parts(text: str) -> tuple[str, ...]:
    """`positive_parts` once per text: the conditions of a function are read for each of its
    sites and each path through it."""
    node = parse_expression(text)
    return () if node is None else tuple(map(written, held_true(node, True)))


def held_true(node: ast.expr, polarity: bool) -> Iterator[ast.expr]:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from held_true(node.operand, not polarity)
    elif isinstance(node, ast.BoolOp):
        # `a and b` true, or `a or b` false: each part is as the whole
        if isinstance(node.op, ast.And) == polarity:
            for value in node.values:
                yield from held_true(value, polarity)
    elif polarity and isinstance(node, ast.Name | ast.Attribute):
        yield node


def written(node: ast.expr) -> str:
    """A part `held_true` gives, written as `ast.unparse` writes it (a name or an attribute
    chain: without its visitor)."""
    return quick_unparse(node) or ast.unparse(node)
