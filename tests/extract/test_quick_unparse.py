"""quick_unparse writes what ast.unparse writes, or leaves the expression to it."""

from __future__ import annotations

import ast

import pytest

from errdex.extract.conditions import negate
from errdex.extract.quick_unparse import quick_unparse

WRITTEN = [
    "x",
    "self.config.model",
    "f(a, b=1)",
    "obj.method().attr",
    "x is None",
    'mode not in ("a", "b")',
    "a < b <= c",
    "not enabled",
    "not a == b",
    "not (a and b)",
    "a and b and c == d",
    "a or not b and c",
    "(a or b) and c",
    "not not x",
    "isinstance(x, int) and x > 0",
    "'it''s'",
    '"a\\nb"',
    "True",
    "-1",
    "x == 1.5",
    "u'x'",
    "f(*args)",
    "f(**kw)",
    "(1).real",
    "a + b > c",
    "x if y else z",
    "[a, b]",
    "a - (b - c) * d % e // f",
    "(a + b) * c ** -d ** e",
    "(a ** b) ** c",
    "x | y & z ^ w << 2 >> 1",
    "~x + -y - +z",
    "-(a + b)",
    "data['data'][0] <= 0",
    "x[1:2, ::3, a:]",
    "x[a,]",
    "x[()]",
    "(a, b) == c",
    "(a,) != b",
    "k in {'a', 'b'}",
    "k not in [1, 2.5, -3]",
    "x[-1].shape[0] % n != 0",
    "f((a, b), [c])",
    "x == float('inf') or y == 1e400",
    "len(rows) - offset < self.size",
    "a[b][c](d)[e:f]",
    "x[*a]",
    "(*a, b) == c",
]


@pytest.mark.parametrize("source", WRITTEN)
def test_same_text_as_unparse_or_none(source: str) -> None:
    node = ast.parse(source, mode="eval").body
    for expr in (node, negate(node)):
        quick = quick_unparse(expr)
        assert quick is None or quick == ast.unparse(expr)


def test_the_usual_tests_are_written() -> None:
    for source in ("x is None", "not self.ok", "a and b.c", "f(x) >= 2", "k in d"):
        node = ast.parse(source, mode="eval").body
        assert quick_unparse(negate(node)) == ast.unparse(negate(node))
        assert quick_unparse(negate(node)) is not None


def test_what_it_does_not_write_is_left_to_unparse() -> None:
    for source in ("u'x'", "f(*args)", "(1).real", "x == 1e400", "x if y else z", "(*a, b) == c"):
        assert quick_unparse(ast.parse(source, mode="eval").body) is None


def test_arithmetic_subscripts_and_literals_are_written() -> None:
    """The kinds of test that most often went to `ast.unparse`: `n % size == 0`,
    `data["k"][0] <= 0`, `dtype not in (a, b)`, `x != -1`."""
    for source in ("n % size == 0", "data['k'][0] <= 0", "d not in (a, b)", "x != -1", "y > 0.5"):
        node = negate(ast.parse(source, mode="eval").body)
        assert quick_unparse(node) == ast.unparse(node)
