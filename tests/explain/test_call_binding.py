"""What a call gives a parameter: by keyword, by position, none past a `*args`."""

from __future__ import annotations

import ast

import pytest

from errdex.explain.call_binding import bound_arguments, given_argument


def _call(text: str) -> ast.Call:
    node = ast.parse(text, mode="eval").body
    assert isinstance(node, ast.Call)
    return node


@pytest.mark.parametrize(
    ("call", "position", "given"),
    [
        ("f(a, b)", 1, "b"),
        ("f(a, path=b)", 1, "b"),  # by keyword, wherever the parameter stands
        ("f(a, path=b)", -1, "b"),  # keyword-only
        ("f(a)", 1, None),
        ("f(*rest, b)", 1, None),  # past a `*args`, the position no longer says which
        ("f(a, b, *rest)", 1, "b"),  # a `*args` after it does not hide it
        ("f(a, b)", -1, None),
    ],
)
def test_given_argument(call: str, position: int, given: str | None) -> None:
    found = given_argument(_call(call), "path", position)
    assert (ast.unparse(found) if found is not None else None) == given


@pytest.mark.parametrize(
    ("call", "bound"),
    [
        ("f(1, mode='r')", {"path": "1", "mode": "'r'"}),
        ("f(1)", {"path": "1"}),
        ("f(*rest)", None),
        ("f(1, **options)", None),
        ("f(1, 2, 3)", None),  # more by position than there are parameters
    ],
)
def test_bound_arguments(call: str, bound: dict[str, str] | None) -> None:
    found = bound_arguments(_call(call), ["path", "mode"])
    assert (None if found is None else {k: ast.unparse(v) for k, v in found.items()}) == bound
