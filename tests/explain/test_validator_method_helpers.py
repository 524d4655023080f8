"""A module's function every caller of which is a type's validator method (a classmethod its
`__get_pydantic_core_schema__` hands the framework, `cls._validate`) handing it the value
as it came checks the field's value, one step up, as a helper of the module's validating
functions does; a call the index did not link (a class defined under `if TYPE_CHECKING:
... else:`) is read in the file. A `try` handing a helper what the function read from the
value alone (`address = value.strip()`) failed on the data: the way out is a value that
helper accepts."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.explain.validators import _unlinked_calls
from errdex.store import Store

FILES = {
    "mail/__init__.py": "from mail.types import Address, Named, Plain\n",
    "mail/schema.py": """
        def after_validator(function):
            return function
        """,
    "mail/checking.py": """
        def check(text, strict=False):
            if "@" not in text:
                raise ValueError("no @ in the address")
            return text
        """,
    "mail/types.py": """
        from typing import TYPE_CHECKING

        from mail import checking
        from mail.schema import after_validator

        MAX_LENGTH = 64


        class AddressError(ValueError):
            pass


        def parse_address(value):
            if len(value) > MAX_LENGTH:
                raise AddressError("address too long")
            address = value.strip()
            try:
                checking.check(address, strict=True)
            except ValueError as e:
                raise AddressError(f"not an address: {e}")
            return address


        def normalise(value):
            if not value.isprintable():
                raise AddressError("unprintable text")
            return value


        class Named:
            def __init__(self, address):
                self.address = address

            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                return after_validator(cls._validate)

            @classmethod
            def _validate(cls, value, /):
                return cls(parse_address(value))


        class Plain:
            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                return after_validator(cls._validate)

            @classmethod
            def _validate(cls, value, /):
                return normalise(value)


        def render(value):
            return normalise(value)


        MIN_NAME = 2


        def text_validator(value):
            if not isinstance(value, str):
                raise TypeError("not text")
            return value


        def parse_name(value):
            if len(value) < MIN_NAME:
                raise AddressError("name too short")
            return value


        def parse_title(value):
            if len(value) < MIN_NAME:
                raise AddressError("title too short")
            return value


        class Loose:
            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                value = text_validator(value)
                return parse_name(value)


        class Titled:
            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                value = value.title()
                return parse_title(value)


        if TYPE_CHECKING:
            Address = str
        else:

            class Address:
                @classmethod
                def __get_pydantic_core_schema__(cls, source, handler):
                    return after_validator(cls._validate)

                @classmethod
                def _validate(cls, value, /):
                    return parse_address(value)
        """,
}


@pytest.fixture(scope="module")
def mail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("mail"), "mail", FILES)


def texts(store: Store, function: str, message: str) -> list[str]:
    (site,) = [
        s
        for s in store.list_sites("mail")
        if s.site.function == function
        and s.site.message is not None
        and message in s.site.message.text
    ]
    return [s.text for s in build_page(store, site.id).solutions]


RUNS = (
    "`parse_address` runs on that value inside `Address._validate` or `Named._validate`, "
    "validators the framework runs: the check is of your data, not of a call in your code."
)


def test_a_helper_of_a_types_validator_methods_checks_the_fields_value(mail: Store) -> None:
    (first, *_) = texts(mail, "parse_address", "too long")
    assert first == (
        "In the data you validate, give a field declared as `Address` or `Named` a value with "
        f"a length at most `MAX_LENGTH` (`64`). {RUNS}"
    )


def test_a_helper_the_try_hands_what_was_read_from_the_value(mail: Store) -> None:
    (first, *_) = texts(mail, "parse_address", "not an address")
    assert first == (
        "In the data you validate, give a field declared as `Address` or `Named` a value that "
        "`checking.check(address, strict=True)` accepts once read into `address`: it failed on "
        "the value given, and this error is raised in its place (`address` is read from the "
        f"value: `address = value.strip()`, line 17). {RUNS}"
    )


def test_a_helper_another_function_calls_as_well_is_no_fields(mail: Store) -> None:
    # `render` calls `normalise` too, and is no validator: its argument may be anyone's
    found = texts(mail, "normalise", "unprintable")
    assert not any("In the data you validate" in t for t in found), found


def test_a_value_a_validator_of_the_module_converted_in_place_is_the_fields(
    mail: Store,
) -> None:
    # `value = text_validator(value)` hands on the same value, converted
    (first, *_) = texts(mail, "parse_name", "name too short")
    assert first == (
        "In the data you validate, give a field declared as `Loose` a value with a length at "
        "least `MIN_NAME` (`2`). `parse_name` runs on that value inside `Loose.validate`, a "
        "validator the framework runs: the check is of your data, not of a call in your code."
    )
    # `value = value.title()` is another value: no field's
    found = texts(mail, "parse_title", "title too short")
    assert not any("In the data you validate" in t for t in found), found


def test_a_call_the_index_did_not_link_is_read_in_the_file() -> None:
    # a method of a class under `else:` (the index may not link it) is read as one; the
    # function's own `def`, and a call of another module's function of that name, are not
    text = textwrap.dedent(FILES["mail/types.py"]) + "\nchecking.parse_address(1)\n"
    named, address = _line(text, "cls(parse_address("), _line(text, "return parse_address(")
    assert _unlinked_calls(text, "parse_address", set()) == [
        ("Named._validate", named),
        ("Address._validate", address),
    ]
    assert _unlinked_calls(text, "parse_address", {named}) == [("Address._validate", address)]
    # a call at the module's level, or in a function's own function: no method to read
    assert _unlinked_calls("def f(v):\n    pass\n\nX = f(1)\n", "f", set()) is None
    nested = "def f(v):\n    pass\n\n\ndef g():\n    def h(v):\n        return f(v)\n"
    assert _unlinked_calls(nested, "f", set()) is None


def _line(text: str, part: str) -> int:
    return next(n + 1 for n, line in enumerate(text.splitlines()) if part in line)
