"""A type's own method that the validator its hook hands the framework (`cls.validate`) hands
the value on to, as it came, one or more calls down (`cls(value)` -> `__init__` ->
`self.check_digits(value)`, `cls(value)` -> `__new__`) checks the data of a field declared
as that type: the way out is the value the data gives that field, not the method's argument.
A private validator's check of what it computes from the value alone is of that data too.
A method the value reaches after it was assigned anew, a method that branches on the value
in several tests, and a method of a class whose hook hands nothing on keep the argument's
words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.store import Store

FILES = {
    "cards/__init__.py": "from cards.types import Card, Dotted, Host, Plain, Shape\n",
    "cards/schema.py": """
        def after_validator(function, schema=None):
            return function
        """,
    "cards/types.py": """
        from cards.schema import after_validator


        class CardError(ValueError):
            pass


        class Card(str):
            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                return after_validator(cls.validate)

            @classmethod
            def validate(cls, value, /, _info):
                return cls(value)

            def __init__(self, number):
                self.check_digits(number)
                number = self.check_sum(number)
                self.check_length(number)
                number = number.strip()
                self.kind = self.check_kind(number)

            @classmethod
            def check_digits(cls, number):
                if not number.isdigit():
                    raise CardError("not all digits")

            @classmethod
            def check_sum(cls, number):
                total = sum(int(d) for d in number)
                valid = total % 10 == 0
                if not valid:
                    raise CardError("bad check sum")
                return number

            def check_length(self, number):
                if len(number) > 19:
                    raise CardError("too long")

            @staticmethod
            def check_kind(number):
                if not number.startswith("4"):
                    raise CardError("unknown kind")
                return "visa"


        class Host:
            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                return after_validator(cls._validate)

            @classmethod
            def _validate(cls, value, /):
                return cls(value)

            def __new__(cls, value):
                if not isinstance(value, str):
                    raise CardError("a host is text")
                return value


        class Shape:
            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                return after_validator(cls._validate)

            @classmethod
            def _validate(cls, value, /):
                return cls.parse(value)

            @classmethod
            def parse(cls, value):
                if isinstance(value, tuple):
                    return value
                elif isinstance(value, str):
                    return tuple(value)
                else:
                    raise CardError("not a shape")


        class Dotted:
            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                return after_validator(cls._validate)

            @classmethod
            def _validate(cls, value, /):
                parts = value.strip().split(":")
                if len(parts) > 2:
                    raise CardError("at most one colon")
                return parts


        class Plain:
            def __init__(self, number):
                self.check(number)

            def check(self, number):
                if not number.isdigit():
                    raise CardError("plain digits")
        """,
}


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("cards"), "cards", FILES)


def texts(store: Store, function: str, message: str) -> list[str]:
    (site,) = [
        s
        for s in store.list_sites("cards")
        if s.site.function == function
        and s.site.message is not None
        and message in s.site.message.text
    ]
    return [s.text for s in build_page(store, site.id).solutions]


def test_a_method_the_types_constructor_hands_the_value_checks_the_fields_data(
    cards: Store,
) -> None:
    (first, *_) = texts(cards, "Card.check_digits", "not all digits")
    assert first == (
        "In the data you validate, give a field declared as `Card` a value that is a string "
        "of digits. `Card.check_digits` runs on that value inside `Card.validate`, a "
        "validator the framework runs: the check is of your data, not of a call in your code."
    )


def test_a_check_of_what_the_method_computes_from_the_value(cards: Store) -> None:
    (first, *_) = texts(cards, "Card.check_sum", "bad check sum")
    assert first.startswith(
        "In the data you validate, give a field declared as `Card` another value: "
        "`Card.check_sum` holds it as `number`"
    ), first


def test_new_reached_by_the_validators_call_of_the_class(cards: Store) -> None:
    (first, *_) = texts(cards, "Host.__new__", "a host is text")
    assert first.startswith(
        "In the data you validate, give a field declared as `Host` a value that is an "
        "instance of `str`."
    ), first


def test_a_value_a_method_of_the_type_gave_back_is_the_same_value(cards: Store) -> None:
    # `number = self.check_sum(number)`: the value, checked
    (first, *_) = texts(cards, "Card.check_length", "too long")
    assert first.startswith(
        "In the data you validate, give a field declared as `Card` a value with a length at "
        "most `19`."
    ), first


def test_a_value_assigned_anew_is_no_longer_the_fields(cards: Store) -> None:
    # `number = number.strip()` before the call: another value than the one given
    found = texts(cards, "Card.check_kind", "unknown kind")
    assert not any("a field declared as `Card`" in t for t in found), found


def test_a_method_branching_on_the_value_in_several_tests_keeps_its_words(
    cards: Store,
) -> None:
    found = texts(cards, "Shape.parse", "not a shape")
    assert not any("In the data you validate" in t for t in found), found


def test_a_private_validators_check_of_what_it_computes_from_the_value(
    cards: Store,
) -> None:
    # `_validate` is no function a user calls: the framework runs it on the field's value
    (first, *_) = texts(cards, "Dotted._validate", "at most one colon")
    assert first.startswith(
        "In the data you validate, give a field declared as `Dotted` another value: "
        "`Dotted._validate` holds it as `value`, and the check at line"
    ), first


def test_a_class_whose_hook_hands_nothing_keeps_the_arguments_words(cards: Store) -> None:
    found = texts(cards, "Plain.check", "plain digits")
    assert not any("In the data you validate" in t for t in found), found
