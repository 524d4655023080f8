"""A hook on the user's type: a `__hook__` the function looks up on what it was given and
calls with the value its check then tests is a way out ("define it on your type")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/schema.py": """
        def _apply(modify, field, schema):
            modify(schema, field)


        def field_schema(field_type, field):
            schema = {}
            if field_type is int:
                schema["type"] = "integer"
            else:
                modify_schema = getattr(field_type, "__modify_schema__", None)
                if modify_schema:
                    _apply(modify_schema, field, schema)
            if schema:
                return schema
            raise ValueError(f"no schema for {field}")


        def encode(value):
            out = []
            if hasattr(value, "__lab_encode__"):
                value.__lab_encode__(out)
            if not out:
                raise TypeError("cannot encode the value")
            return out


        def describe(value):
            name = getattr(value, "__qualname__", None)
            info = getattr(value, "__lab_info__", None)
            if info is not None:
                print(info)
            if name is None:
                raise TypeError("a value without a name")
            return name
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("hooks"), "lab", LAB)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "lab", message).solutions]


def test_a_hook_read_by_getattr_that_fills_what_the_check_tests(lab: Store) -> None:
    found = [t for t in texts(lab, "no schema for {field}") if "__modify_schema__" in t]
    assert found == [
        "Define `__modify_schema__` on your type (the `field_type` this function was given): "
        "the function looks it up and calls it with `schema` (line 13), which the check tests "
        "before the error is raised."
    ]


def test_a_hook_tested_by_hasattr_and_called_on_the_object(lab: Store) -> None:
    assert any(
        t.startswith("Define `__lab_encode__`") for t in texts(lab, "cannot encode the value")
    )


def test_a_hook_given_nothing_the_check_tests_and_a_python_dunder_are_no_way_out(
    lab: Store,
) -> None:
    assert not any(t.startswith("Define") for t in texts(lab, "a value without a name"))
