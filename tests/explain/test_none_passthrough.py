"""A function that hands None back for None (`if value is None: return None`) and raises for
a value it cannot take: "Pass None for the argument `value`" gets past the raise only by
giving up the value the user handed over, so it is no way out. A check that returns nothing
on every path (an optional feature's validator) keeps it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

KIT = {
    "kit/__init__.py": "from kit.values import Base, parse, check_salt, checked_salt\n",
    "kit/values.py": """
        class Base:
            @classmethod
            def coerce(cls, key, value):
                if value is None:
                    return None
                raise ValueError("Attribute does not accept this type")


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
        """,
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kit"), "kit", KIT)


def _none_ways(store: Store, function: str) -> list[str]:
    page = page_in_function(store, "kit", function)
    return [s.text for s in page.solutions if s.text.startswith("Pass None")]


def test_a_hook_that_refuses_every_value_but_none_offers_no_none(kit: Store) -> None:
    # before: "Pass None for the argument `value` of `Base.coerce`."
    assert _none_ways(kit, "Base.coerce") == []


def test_a_converter_that_hands_none_back_offers_no_none(kit: Store) -> None:
    # before: "Pass None for the argument `value` of `parse`."
    assert _none_ways(kit, "parse") == []
    # an optional value's check, which returns nothing or the value as it came, keeps it
    assert _none_ways(kit, "check_salt") == ["Pass None for the argument `salt` of `check_salt`."]
    assert _none_ways(kit, "checked_salt") == [
        "Pass None for the argument `salt` of `checked_salt`."
    ]
