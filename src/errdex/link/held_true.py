"""The names and attributes a condition holds true as a whole: what a truth test of a
setting can be read from (`if a and b.c:` holds `a` and `b.c`; an early exit `if not a or
x < 1: return` holds `a` after it)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from errdex.extract.quick_unparse import quick_unparse
from errdex.link.expression_texts import parse_expression

__all__ = ["held_true", "negative_parts", "positive_parts", "written"]


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


def negative_parts(text: str) -> list[str]:
    """The names and attributes a condition holds false as a whole (`not a` → `a`; the
    `else` of `if a or b.c:`, `not (a or b.c)` → `a`, `b.c`)."""
    return list(_negative_parts(text))


@functools.lru_cache(maxsize=1 << 12)
def _negative_parts(text: str) -> tuple[str, ...]:
    node = parse_expression(text)
    return () if node is None else tuple(map(written, _held(node, True, False)))


def held_true(node: ast.expr, polarity: bool) -> Iterator[ast.expr]:
    """The names and attributes held true when `node` is `polarity`."""
    return _held(node, polarity, True)


def _held(node: ast.expr, polarity: bool, wanted: bool) -> Iterator[ast.expr]:
    """The names and attributes held `wanted` when `node` is `polarity`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from _held(node.operand, not polarity, wanted)
    elif isinstance(node, ast.BoolOp):
        # `a and b` true, or `a or b` false: each part is as the whole
        if isinstance(node.op, ast.And) == polarity:
            for value in node.values:
                yield from _held(value, polarity, wanted)
    elif polarity == wanted and isinstance(node, ast.Name | ast.Attribute):
        yield node


def written(node: ast.expr) -> str:
    """A part `held_true` gives, written as `ast.unparse` writes it (a name or an attribute
    chain: without its visitor)."""
    return quick_unparse(node) or ast.unparse(node)
