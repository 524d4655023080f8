"""scanned_names reads an expression's dotted names from its tokens, as the parse gives
them, and leaves to the parser every text it cannot read for sure."""

from __future__ import annotations

import ast

import pytest

from errdex.extract.conditions import dotted_names
from errdex.facts import ValueRead
from errdex.link.expression_texts import local_value
from errdex.link.scanned_names import scan, scanned_names


def _parsed(text: str) -> tuple[str, ...]:
    return tuple(dotted_names(ast.parse(text, mode="eval").body))


@pytest.mark.parametrize(
    "text",
    [
        "x",
        "not self.config.enabled",
        "a.b is not None and c",
        "x not in (envs.A, envs.B)",
        "isinstance(value, str) or len(items) != 2",
        "a.b(c).d.e",
        "f(x).y + g()",
        '"-".join(parts) == name',
        "rb'x' + u'y'",
        "-a ** -b < ~c",
        "1.5e-3 < x and 0x1F & flags",
        "1 .real",
        "(a, b) == (b, a)",
        "f(a,)",
        "(a)(b)",
        "x is None or x.y is None",
        "len(x) > 0 and x[0]",  # a subscript: not scanned
    ],
)
def test_names_as_the_parse_gives_them(text: str) -> None:
    scanned = scanned_names(text)
    if "[" in text:
        assert scanned is None
    else:
        assert scanned == _parsed(text)


@pytest.mark.parametrize(
    "text",
    [
        "x[0]",
        "f(key=1)",
        "a if b else c",
        "lambda: x",
        "[y for y in z]",
        "f'{x}'",
        "f(*args)",
        "(n := 3)",
        "a.b  # note",
        "café",
        # no expressions at all: what a loop, a handler or a case condition writes
        "for item in items",
        "except ValueError as error",
        "subject matches Point(x)",
        "a b",
        "a,",
        "(a",
        "1.real",
        "007",
        "x.None",
    ],
)
def test_leaves_to_the_parser(text: str) -> None:
    assert scanned_names(text) is None


@pytest.mark.parametrize(
    ("text", "may_be_chain"),
    [
        ("a.b", True),
        ("(a.b)", True),
        ("f(x).y", True),
        ("f(x)", False),
        ("a + b", False),
        ("-a", False),
        ("'text'", False),
        ("a, b", False),
        ("(a)(b)", False),
    ],
)
def test_says_when_the_text_may_be_a_name(text: str, may_be_chain: bool) -> None:
    scanned = scan(text)
    assert scanned is not None
    assert scanned[1] is may_be_chain
    if not may_be_chain:
        assert not isinstance(ast.parse(text, mode="eval").body, ast.Name | ast.Attribute)


def test_local_value_of_a_scanned_text_is_the_parsed_one() -> None:
    # computed from names: the scan's; an attribute of a call: the parse's alias
    names = ("max", "config.a", "limit")
    assert local_value("max(config.a, limit) + 1") == ValueRead(None, None, names)
    assert local_value("get(config).size") == ValueRead(None, "get(config).size", ())
    assert local_value("(config.size)") == ValueRead(None, "config.size", ())
