"""A function its module hands on by name from a validating table (`(bool, [to_bool])`) or
lookup (`yield none_check`) is run by the framework on the user's data: its page speaks of
the value a field declared as the paired type is given, not of the function's argument. A
shortcut that returns a value plain data can hold (`if v in TRUE: return True`) is such a
value when no check says one; one of a class only Python code makes is not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "shapes/__init__.py": """
        from shapes.convert import find_converters, to_bool, to_text, to_upper, to_json, Link
        """,
    "shapes/convert.py": """
        from typing import Any

        TRUE = ["1", "on", "yes"]
        FALSE = ["0", "off", "no"]


        class BoolError(ValueError):
            pass


        def to_bool(v):
            if v is True or v is False:
                return v
            if isinstance(v, str):
                v = v.lower()
            if v in TRUE:
                return True
            if v in FALSE:
                return False
            raise BoolError()


        def to_text(v):
            if isinstance(v, str):
                # already text
                return v
            elif isinstance(v, (int, float)):
                return str(v)
            else:
                raise TypeError("not text")


        def to_upper(v):
            if not isinstance(v, str):
                raise ValueError("not text")
            return v.upper()


        def to_json(v):
            if not isinstance(v, str):
                raise ValueError("not JSON text")
            return v


        def shout(v):
            if v in TRUE:
                return True
            raise ValueError("cannot shout")


        _CONVERTERS = [
            (bool, [to_bool]),
            (str, [to_text]),
        ]
        _HANDLERS = {str: [shout]}
        _PARSERS = {"json": to_json}


        def find_converters(kind):
            if kind is None:
                yield to_upper
                return
            for declared, found in _CONVERTERS:
                if declared is kind:
                    yield from found


        class Link(str):
            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                if value.__class__ == cls:
                    return value
                if "://" not in value:
                    raise ValueError("no scheme")
                return cls(value)
        """,
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shapes"), "shapes", FILES)


def first(store: Store, function: str) -> str:
    return page_in_function(store, "shapes", function).solutions[0].text


def test_a_tables_function_names_the_type_it_is_paired_with(shapes: Store) -> None:
    # the shortcuts that return the values listed are the way out, all of them (`v is
    # True or v is False` as well: the values it lists)
    assert first(shapes, "to_bool").startswith(
        "In the data you validate, give a field declared as `bool` a value that is one of "
        "`True`, `False`, `'1'`, `'on'`, `'yes'`, `'0'`, `'off'`, `'no'`. `to_bool` is a "
        "validator the "
        "framework runs on that value"
    )


def test_a_branch_behind_a_comment_still_accepts(shapes: Store) -> None:
    assert first(shapes, "to_text").startswith(
        "In the data you validate, give a field declared as `str` a value that is an "
        "instance of one of `str`, `int`, `float`."
    )


def test_a_function_a_lookup_yields_speaks_of_the_field(shapes: Store) -> None:
    assert first(shapes, "to_upper").startswith(
        "In the data you validate, give the field a value that is an instance of `str`."
    )


def test_a_table_whose_name_says_nothing_of_validating_is_not_read(shapes: Store) -> None:
    # `_HANDLERS` pairs `shout` with `str`, but neither name says it validates data
    assert "In the data you validate" not in first(shapes, "shout")


def test_a_registry_by_name_is_no_fields_type(shapes: Store) -> None:
    # `_PARSERS` names a format of the program's own, not a type a field is declared as
    assert "In the data you validate" not in first(shapes, "to_json")


def test_a_shortcut_for_an_object_of_the_class_is_no_way_out(shapes: Store) -> None:
    # `value.__class__ == cls` holds only for an object Python code made: the way out is
    # the scheme the check asks for
    text = first(shapes, "Link.validate")
    assert "__class__" not in text
    assert "`'://'`" in text
