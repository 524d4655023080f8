"""`shapes.isinstance_test`: the object and class of an `isinstance(x, K)` call, read once
for `calls_made`'s narrowing and guards and for `isinstance_of`."""

from __future__ import annotations

import ast

from errdex.extract.shapes import isinstance_of, isinstance_test


def parsed(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_the_object_and_class_of_an_isinstance_call() -> None:
    found = isinstance_test(parsed("isinstance(ctx.request, api.Body)"))
    assert found is not None
    assert [ast.unparse(n) for n in found] == ["ctx.request", "api.Body"]


def test_any_other_call_is_none() -> None:
    assert isinstance_test(parsed("isinstance(x)")) is None
    assert isinstance_test(parsed("issubclass(x, Body)")) is None
    assert isinstance_test(parsed("x.isinstance(y, Body)")) is None


def test_isinstance_of_asks_for_the_named_object() -> None:
    node = parsed("isinstance(request, (Body, Form))")
    assert ast.unparse(isinstance_of(node, "request") or node) == "(Body, Form)"
    assert isinstance_of(node, "other") is None
    assert isinstance_of(parsed("isinstance(ctx.request, Body)"), "ctx") is None
