"""The walker dispatches on statement kind: every kind of this Python has a handler, and one
it lacks (new syntax) is skipped in use but fails the tests."""

from __future__ import annotations

import ast
import textwrap

import pytest

from errdex.extract.walker import ERROR_UNKNOWN_ENV, UnknownStatementError, Walker

SOURCE = textwrap.dedent(
    """
    raise ValueError("before")
    pass
    raise ValueError("after")
    """
)


class NewStatement(ast.stmt):
    """Stands for a statement kind a later Python adds."""

    _fields = ()


def _tree_with_new_statement() -> ast.Module:
    tree = ast.parse(SOURCE)
    tree.body[1] = NewStatement(lineno=3, end_lineno=3, col_offset=0, end_col_offset=4)
    return tree


def test_every_statement_kind_of_this_python_has_a_handler() -> None:
    kinds = [
        kind
        for kind in vars(ast).values()
        if isinstance(kind, type) and issubclass(kind, ast.stmt) and kind is not ast.stmt
    ]
    assert len(kinds) > 20
    assert [k.__name__ for k in kinds if not hasattr(Walker, "_" + k.__name__)] == []


def test_an_unknown_statement_kind_fails_under_tests() -> None:
    with pytest.raises(UnknownStatementError, match="NewStatement \\(line 3\\)"):
        Walker(SOURCE, {}).run(_tree_with_new_statement())


def test_an_unknown_statement_kind_is_skipped_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ERROR_UNKNOWN_ENV)
    walker = Walker(SOURCE, {})
    walker.run(_tree_with_new_statement())
    texts = [site.message.text if site.message else None for site in walker.sites.sites]
    assert texts == ["before", "after"]
