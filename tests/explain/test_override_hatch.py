"""A raise that a public class's docstring says a subclass overrides asks for that subclass,
passed where the package takes the class; a raise no docstring calls replaceable, or a
class nothing takes in its place, gets no such way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_in_function

from errdex.store import Store

FILES = {
    "schemas/__init__.py": "",
    "schemas/generate.py": """
        class SchemaError(Exception):
            pass


        class GenerateSchema:
            def callable_schema(self, schema) -> dict:
                \"\"\"The schema of a callable value.

                Unless overridden in a subclass, this raises an error.
                \"\"\"
                return self.handle_invalid(schema, "callable")

            def handle_invalid(self, schema, info: str) -> dict:
                raise SchemaError(f"Cannot generate a schema for {info}")

            def tuple_schema(self, schema) -> dict:
                \"\"\"Override this method in a subclass to change it.\"\"\"
                if not schema:
                    raise SchemaError("Empty tuple schema")
                return {}


        class Renderer:
            def render(self, value) -> str:
                \"\"\"Unless overridden in a subclass, this raises an error.\"\"\"
                raise SchemaError("Cannot render")


        def model_schema(cls, generator: type[GenerateSchema] = GenerateSchema) -> dict:
            return generator().callable_schema(cls)
        """,
}


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("schemas"), "schemas", FILES)


def test_a_method_documented_to_raise_unless_overridden_asks_for_a_subclass(
    schemas: Store,
) -> None:
    page = page_in_function(schemas, "schemas", "GenerateSchema.callable_schema")
    assert page.solutions[0].text == (
        "Subclass `GenerateSchema`, override its `callable_schema` to return a `dict` in "
        "place of raising, and pass your subclass as `generator=` (to `model_schema`): the "
        "docstring of `callable_schema` says “Unless overridden in a subclass, this raises "
        "an error.”"
    )


def test_the_helper_it_calls_is_the_one_to_override_on_its_page(schemas: Store) -> None:
    page = page_in_function(schemas, "schemas", "GenerateSchema.handle_invalid")
    assert page.solutions[0].text.startswith(
        "Subclass `GenerateSchema`, override its `handle_invalid` to return a `dict` in place "
        "of raising, and pass your subclass as `generator=` (to `model_schema`): the docstring "
        "of `callable_schema`, which calls it, says"
    )


def test_a_check_before_other_work_is_no_override_point(schemas: Store) -> None:
    page = page_in_function(schemas, "schemas", "GenerateSchema.tuple_schema")
    assert not any(s.text.startswith("Subclass") for s in page.solutions)
    assert offered(page) == [
        "Pass a non-empty (true) value for the argument `schema` of `GenerateSchema.tuple_schema`."
    ]


def test_a_class_nothing_takes_in_its_place_gets_none(schemas: Store) -> None:
    page = page_in_function(schemas, "schemas", "Renderer.render")
    assert not any(s.text.startswith("Subclass") for s in page.solutions)
    assert offered(page) == []
    assert "`Renderer.render` (schemas/generate.py:27) raises `SchemaError`" in page.what_it_means
