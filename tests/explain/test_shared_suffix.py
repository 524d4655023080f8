"""A list of what is valid that a factory adds to every reason it is given is no way out of
one raise's reason; a list the raise writes itself, or a factory only one raise calls, is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

EXPR = {
    "expr/__init__.py": "from expr.evaluate import Evaluator, evaluate_op, load_format",
    "expr/evaluate.py": """
        import builtins


        def _expr_error(node, reason):
            return ValueError(
                f"{reason}: {node!r}. Supported expressions are names, constants, "
                "attributes and calls."
            )


        def _format_error(name):
            return ValueError(f"Unknown format {name!r}. Supported formats are json and yaml.")


        class Evaluator:
            def __init__(self, values):
                self.values = values

            def visit_name(self, node):
                if node.id in self.values:
                    return self.values[node.id]
                if hasattr(builtins, node.id):
                    return getattr(builtins, node.id)
                raise _expr_error(node, f"Unknown name '{node.id}'")

            def visit_other(self, node):
                raise _expr_error(node, "Unsupported expression")


        def evaluate_op(op):
            if op not in ("+", "-"):
                raise ValueError(f"Unknown operator {op!r}. Supported operators are + and -.")
            return op


        def load_format(name):
            if name not in ("json", "yaml"):
                raise _format_error(name)
            return name
        """,
}


@pytest.fixture(scope="module")
def expr(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("expr"), "expr", EXPR)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "expr", message).solutions]


def test_a_factorys_list_shared_by_every_reason_is_no_way_out(expr: Store) -> None:
    # an unknown name is of the first form the list allows: using "one it lists" does nothing
    found = texts(expr, "Unknown name")
    assert not any("Supported expressions" in t for t in found), found


def test_a_list_the_raise_writes_itself_stays(expr: Store) -> None:
    found = texts(expr, "Unknown operator")
    assert any("Supported operators" in t for t in found), found


def test_a_factory_one_raise_calls_keeps_its_list(expr: Store) -> None:
    found = texts(expr, "Unknown format")
    assert any("Supported formats" in t for t in found), found
