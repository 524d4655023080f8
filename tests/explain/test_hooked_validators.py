"""A function of a module named for validating that a type's hook in another module hands
the framework by its module (`function=_validators.import_string` in
`__get_pydantic_core_schema__`) is run on the data of a field declared as that type: the way
out is the value the data gives that field, and a helper it calls on that value (past the
helper's own retry of itself) checks the same value. A `try` whose one call is handed what
was read from the value by keyword (`date(**fields)`) failed on the data as one handed it by
position does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.store import Store

FILES = {
    "shapes/__init__.py": "from shapes.types import Dotted, Named\n",
    "shapes/schema.py": """
        def plain_validator(function):
            return function
        """,
    "shapes/_validating.py": """
        import re
        from datetime import date
        from importlib import import_module

        day_re = re.compile(r"(?P<year>\\d{4})-(?P<month>\\d{1,2})-(?P<day>\\d{1,2})$")


        class PathError(ValueError):
            pass


        class DayError(ValueError):
            pass


        def load_path(value):
            if isinstance(value, str):
                try:
                    return _load(value)
                except ImportError as e:
                    raise PathError(f"bad path: {e}")
            return value


        def _load(dotted):
            module_path = dotted.strip()
            try:
                return import_module(module_path)
            except ModuleNotFoundError:
                if "." in module_path:
                    try:
                        return _load(module_path.rpartition(".")[0])
                    except ImportError:
                        pass
                raise ImportError(f"no module {module_path}")


        def parse_day(value):
            found = day_re.match(value)
            if found is None:
                raise DayError("not a day")
            fields = {k: int(v) for k, v in found.groupdict().items()}
            try:
                return date(**fields)
            except ValueError:
                raise DayError("no such day")


        _VALIDATORS = [(date, [parse_day])]


        def check_name(value):
            if not value.isidentifier():
                raise PathError("not a name")
            return value
        """,
    "shapes/types.py": """
        from shapes import _validating
        from shapes.schema import plain_validator


        class Dotted:
            @classmethod
            def __get_pydantic_core_schema__(
                cls, source, handler
            ):
                return plain_validator(function=_validating.load_path)


        class Named:
            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                if source is None:
                    raise TypeError("no type to name")
                # called here on the hook's own value, not handed the framework
                return plain_validator(_validating.check_name(source.__name__))
        """,
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shapes"), "shapes", FILES)


def texts(store: Store, function: str, message: str) -> list[str]:
    (site,) = [
        s
        for s in store.list_sites("shapes")
        if s.site.function == function
        and s.site.message is not None
        and message in s.site.message.text
    ]
    return [s.text for s in build_page(store, site.id).solutions]


def test_a_function_another_modules_type_hook_hands_on_checks_the_fields_value(
    shapes: Store,
) -> None:
    (first, *_) = texts(shapes, "load_path", "bad path")
    assert first == (
        "In the data you validate, give a field declared as `Dotted` a value that "
        "`_load(value)` accepts: it failed on the value given, and this error is raised in "
        "its place. `load_path` is a validator the framework runs on that value: the check is "
        "of your data, not of a call in your code."
    )


def test_its_helper_past_the_helpers_call_of_itself_checks_the_same_value(
    shapes: Store,
) -> None:
    (first, *_) = texts(shapes, "_load", "no module")
    assert first == (
        "In the data you validate, give a field declared as `Dotted` a value that "
        "`import_module(module_path)` accepts once read into `module_path`: it failed on the "
        "value given, and this error is raised in its place (`module_path` is read from the "
        "value: `module_path = dotted.strip()`, line 27). `_load` runs on that value inside "
        "`load_path`, a validator the framework runs: the check is of your data, not of a "
        "call in your code."
    )


def test_a_call_handed_what_was_read_from_the_value_by_keyword(shapes: Store) -> None:
    (first, *_) = texts(shapes, "parse_day", "no such day")
    assert first == (
        "In the data you validate, give a field declared as `date` a value that "
        "`date(**fields)` accepts once read into `fields`: it failed on the value given, and "
        "this error is raised in its place (`fields` is read from the value: `fields = {k: "
        "int(v) for k, v in found.groupdict().items()}`, line 43). `parse_day` is a validator "
        "the framework runs on that value: the check is of your data, not of a call in your "
        "code."
    )


def test_a_function_a_hook_calls_is_no_fields_validator(shapes: Store) -> None:
    found = texts(shapes, "check_name", "not a name")
    assert not any("In the data you validate" in t for t in found), found
