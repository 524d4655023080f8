"""A function that hands None back for None (`if value is None: return None`) and raises for
a value it cannot take: "Pass None for the argument `value`" gets past the raise only by
giving up the value the user handed over, so it is no way out. A check that returns nothing
or the value as it came (an optional feature's validator), a check that asks for None, and a
parameter that is None by default keep it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

KIT = {
    "kit/__init__.py": (
        "from kit.values import (Base, Listed, parse, check_salt, checked_salt, check_unused,\n"
        "    is_small, parse_timeout, pick, parse_rgb)\n"
    ),
    "kit/values.py": """
        class Base:
            @classmethod
            def coerce(cls, key, value):
                if value is None:
                    return None
                raise ValueError("Attribute does not accept this type")


        class Listed(Base):
            @classmethod
            def coerce(cls, key, value):
                return list(value)


        def _scaled(text):
            return float(text) / 100


        def parse(value):
            if value is None:
                return None
            number = _scaled(value)
            if number > 1:
                raise ValueError("value must be at most 100")
            return number


        def check_salt(salt):
            if salt is None:
                return
            size = _scaled(salt)
            if size > 1:
                raise ValueError("salt must be at most 100")


        def checked_salt(salt):
            if salt is None:
                return None
            size = _scaled(salt)
            if size > 1:
                raise ValueError("salt must be at most 100")
            return salt


        def check_unused(option):
            if option is None:
                return
            raise TypeError("option is not supported on this backend")


        def is_small(size):
            if size is None:
                return None
            if _scaled(size) > 1:
                raise ValueError("size is too big")
            return True


        def parse_timeout(timeout=None):
            if timeout is None:
                return None
            seconds = _scaled(timeout)
            if seconds > 1:
                raise ValueError("timeout is too long")
            return seconds


        def pick(arg, choices):
            for value, names in choices.items():
                if arg in names:
                    return value
            if arg is None:
                return None
            raise ValueError(f"not a choice: {arg!r}")


        def parse_rgb(rgb):
            if rgb is None:
                return None
            parts = [int(part) for part in rgb.split(",")]
            if not all(part <= 255 for part in parts):
                raise ValueError(f"rgb components must be <= 255 in {rgb!r}")
            return parts
        """,
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kit"), "kit", KIT)


def _solutions(store: Store, function: str) -> list[str]:
    return [s.text for s in page_in_function(store, "kit", function).solutions]


def test_a_hook_subclasses_replace_offers_no_none(kit: Store) -> None:
    # before: "Pass None for the argument `value` of `Base.coerce`."
    assert _solutions(kit, "Base.coerce") == []


def test_a_converter_offers_the_messages_rule_not_none(kit: Store) -> None:
    # before: "Pass None for the argument `value` of `parse`."; the stated form, quoting
    # the whole message, no longer hides the rule it states
    assert _solutions(kit, "parse") == [
        "Keep the argument `value` of `parse` at most 100, as the message says: "
        "“value must be at most 100”"
    ]


def test_optional_values_keep_none(kit: Store) -> None:
    # an optional value's check, returning nothing or the value as it came
    assert _solutions(kit, "check_salt") == [
        "Keep the argument `salt` of `check_salt` at most 100, as the message says: "
        "“salt must be at most 100”",
        "Pass None for the argument `salt` of `check_salt`.",
    ]
    assert _solutions(kit, "checked_salt") == [
        "Keep the argument `salt` of `checked_salt` at most 100, as the message says: "
        "“salt must be at most 100”",
        "Pass None for the argument `salt` of `checked_salt`.",
    ]


def test_a_check_that_asks_for_none_keeps_it(kit: Store) -> None:
    # a function no subclass replaces, raising for any option but None
    assert _solutions(kit, "check_unused") == [
        "Pass None for the argument `option` of `check_unused`."
    ]


def test_a_constant_returned_is_not_made_from_the_value(kit: Store) -> None:
    # `return True`: nothing made from the value
    assert _solutions(kit, "is_small") == ["Pass None for the argument `size` of `is_small`."]


def test_a_parameter_none_by_default_keeps_leaving_it_out(kit: Store) -> None:
    assert _solutions(kit, "parse_timeout") == [
        "Leave the argument `timeout` of `parse_timeout` out (it is None by default), or pass None."
    ]


def test_a_value_picked_for_the_argument_is_made_from_it(kit: Store) -> None:
    # `return value` of the choice the argument names: a converter, no "Pass None"
    assert not any(s.startswith("Pass None") for s in _solutions(kit, "pick"))


def test_a_rule_of_a_part_of_the_argument_keeps_the_stated_form(kit: Store) -> None:
    # "rgb components must be <= 255": the parts of `rgb`, not `rgb` itself, so the rule
    # is not said of the argument; the message is quoted whole
    assert _solutions(kit, "parse_rgb") == [
        "Change what you pass for `rgb` of `parse_rgb` as the message says: "
        "“rgb components must be <= 255 in RGB”"
    ]
