"""A validator the framework runs on the user's data: its page speaks of the value the data
gives the field, never of the validator's own argument (`v`). When only shortcuts that give
the value back let it by (`if isinstance(v, Hashable): return v` then the raise), passing
one of them is the way out, whatever type it names; a check on the value the other rules
cannot put in words is said as another value for the field; and when nothing can be said,
no solution names the argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "forms/__init__.py": "from forms.validators import find_validators\n",
    "forms/validators.py": """
        import re
        from collections.abc import Hashable as CollectionsHashable
        from enum import Enum
        from typing import Hashable, Pattern

        from pydantic import field_validator


        class HashError(TypeError):
            pass


        class EnumError(TypeError):
            pass


        class PatternError(ValueError):
            pass


        class DuplicateError(ValueError):
            pass


        def hashable_validator(v):
            if isinstance(v, Hashable):
                return v
            raise HashError()


        def enum_validator(v):
            if isinstance(v, Enum):
                return v
            raise EnumError()


        def unique_validator(v):
            for i, value in enumerate(v, start=1):
                if value in v[i:]:
                    raise DuplicateError()
            return v


        class ShapeError(TypeError):
            pass


        SHAPE_LIST = 2


        def sequence_validator(v):
            if isinstance(v, list):
                return v
            raise ShapeError()


        def pattern_validator(v):
            if isinstance(v, Pattern):
                return v
            text = str(v)
            try:
                return re.compile(text)
            except re.error:
                raise PatternError()


        class Mode(Enum):
            NONE = 0
            EAGER = 1


        class Config:
            @field_validator("mode", mode="before")
            @classmethod
            def validate_mode(cls, value):
                if isinstance(value, str):
                    mode_name = value.upper()
                    if mode_name not in Mode.__members__:
                        raise ValueError(f"Invalid mode: {value}")
                    return Mode[mode_name]
                return value


        def find_validators(kind):
            if kind is Hashable or kind is CollectionsHashable:
                yield hashable_validator
                return
            if kind is Pattern or kind is re.Pattern:
                yield pattern_validator
                return
            if kind is list:
                yield unique_validator
                return
            if issubclass(kind, Enum):
                yield enum_validator


        def find_shape_validators(field):
            if field.shape is SHAPE_LIST:
                yield sequence_validator
        """,
}


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("forms"), "forms", FILES)


def texts(store: Store, function: str) -> list[str]:
    return [s.text for s in page_in_function(store, "forms", function).solutions]


def test_a_shortcut_alone_lets_the_value_by(forms: Store) -> None:
    # the type the lookup tests the field's to be, not its alias imported from elsewhere
    assert texts(forms, "hashable_validator")[0].startswith(
        "In the data you validate, give a field declared as `Hashable` a value that is an "
        "instance of `Hashable`. `hashable_validator` is a validator the framework runs"
    )


def test_a_constant_tested_of_another_value_is_no_fields_type(forms: Store) -> None:
    # `field.shape is SHAPE_LIST` tests no type the field is declared as
    assert texts(forms, "sequence_validator")[0].startswith(
        "In the data you validate, give the field a value that is an instance of `list`."
    )


def test_a_yield_under_another_test_names_no_type(forms: Store) -> None:
    assert texts(forms, "enum_validator")[0].startswith(
        "In the data you validate, give the field a value that is an instance of `Enum`."
    )


def test_a_check_put_in_no_words_is_another_value_of_the_field(forms: Store) -> None:
    (text,) = texts(forms, "unique_validator")
    assert text.startswith(
        "In the data you validate, give a field declared as `list` another value: "
        "`unique_validator` holds it as `v`, and the check at line "
    )
    assert "argument `v`" not in text


def test_no_solution_names_the_validators_argument(forms: Store) -> None:
    # a conversion of the value failed: not the value as given, nothing said
    assert not any("argument `v`" in t for t in texts(forms, "pattern_validator"))


def test_a_check_against_an_enums_names_lists_them(forms: Store) -> None:
    # `not in Mode.__members__` of what the validator made of the value (`value.upper()`)
    assert texts(forms, "Config.validate_mode")[0].startswith(
        "In the data you validate, give the field `mode` of `Config` a value that is one of "
        "`'NONE'`, `'EAGER'`."
    )
