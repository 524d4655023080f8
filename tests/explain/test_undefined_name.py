"""A raise under `except NameError` around a call that resolves the user's annotation: the
way out is to make the name the annotation uses importable where it is written, not a
change to what the internal call was given."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "schemas/__init__.py": "",
    "schemas/_build.py": """
        import typing


        class UndefinedAnnotation(NameError):
            pass


        def get_function_return_type(func, explicit, namespace):
            if explicit is not None:
                return explicit
            return typing.get_type_hints(func, localns=namespace).get("return")


        def serializer_schema(serializer, ns):
            try:
                return_type = get_function_return_type(serializer.func, serializer.returns, ns)
            except NameError as e:
                raise UndefinedAnnotation(str(e)) from e
            return return_type


        def field_type(raw, module):
            try:
                return typing.get_type_hints(raw, module)
            except NameError:
                raise


        def run_hook(source, env):
            try:
                return eval(source, env)
            except NameError as e:
                raise RuntimeError("the hook failed") from e
        """,
}


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("schemas"), "schemas", FILES)


def test_a_return_annotation_resolved_names_the_function_given(schemas: Store) -> None:
    page = page_in_function(schemas, "schemas", "serializer_schema")
    assert page.solutions[0].text.startswith(
        "Define or import the name your annotation uses where the annotation is written: "
        "`get_function_return_type(serializer.func, serializer.returns, ns)` (the "
        "`try` at line 17) resolved the return annotation of the function it was given "
        "(`serializer.func`) and met a name that is not defined there (the `NameError` above "
        "this one in the traceback names it: `name '...' is not defined`)."
    )
    assert "not only under `if TYPE_CHECKING:`" in page.solutions[0].text


def test_a_reraise_says_its_own_message_names_it(schemas: Store) -> None:
    page = page_in_function(schemas, "schemas", "field_type")
    assert page.solutions[0].text.startswith(
        "Define or import the name your annotation uses where the annotation is written: "
        "`typing.get_type_hints(raw, module)` (the `try` at line 25) resolved an annotation "
        "and met a name that is not defined there (this error's message names it:"
    )


def test_an_evaluation_of_no_annotation_is_not_the_users(schemas: Store) -> None:
    page = page_in_function(schemas, "schemas", "run_hook")
    assert not any("annotation" in s.text for s in page.solutions)
