"""A type's validator the framework runs on a field's value (its `__get_validators__` yields
`cls.validate`): a check past a helper of the module the `try` hands the value to
(`import_string(value)`), or against a constraint the type's declaration sets (`cls.places`,
which `condecimal(places=2)` fixes on the subclass it makes), is of the data all the same;
the way out is the value the data gives a field of that type."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "kinds/__init__.py": "from kinds.types import Counted, Dotted, Places, Size, Textual\n",
    "kinds/loading.py": """
        import importlib


        def import_path(path):
            module, _, name = path.rpartition(".")
            return getattr(importlib.import_module(module), name)
        """,
    "kinds/types.py": """
        import re
        from decimal import Decimal

        from kinds.loading import import_path


        class DottedError(ValueError):
            pass


        class PlacesError(ValueError):
            pass


        def as_text(value):
            if not isinstance(value, str):
                raise TypeError("not a string")
            return value


        class Dotted:
            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                try:
                    return import_path(value)
                except ImportError as e:
                    raise DottedError(str(e))


        class Textual:
            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                try:
                    return as_text(value)
                except TypeError:
                    raise DottedError("not text")


        class Places(Decimal):
            places: int = None

            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                exponent = value.as_tuple()[2]
                decimals = abs(exponent) if exponent < 0 else 0
                if cls.places is not None and decimals > cls.places:
                    raise PlacesError("too many decimal places")
                return value


        size_re = re.compile(r"^\\s*(\\d+)\\s*([a-z]+)$")


        class Size(int):
            unit_re = re.compile(r"[a-z]+")

            @classmethod
            def __get_validators__(cls):
                yield cls.validate
                yield cls.validate_unit

            @classmethod
            def validate(cls, v):
                found = size_re.match(str(v))
                if found is None:
                    raise ValueError("no size")
                return cls(int(found.group(1)))

            @classmethod
            def validate_unit(cls, v):
                found = cls.unit_re.match(str(v))
                if found is None:
                    raise ValueError("no unit")
                return v


        class Counted(Decimal):
            limit: int = None

            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                cls.limit = len(str(value))
                if cls.limit > 10:
                    raise PlacesError("too long")
                return value
        """,
}


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kinds"), "kinds", FILES)


def texts(store: Store, function: str) -> list[str]:
    return [s.text for s in page_in_function(store, "kinds", function).solutions]


def in_data(owner: str, said: str) -> str:
    """The sentence of a way out in the data for a field declared as `owner`."""
    return (
        f"In the data you validate, give a field declared as `{owner}` {said} `{owner}.validate` "
        "is a validator the framework runs on that value: the check is of your data, not of a "
        "call in your code."
    )


def test_a_helper_of_the_module_the_try_hands_the_value_to(kinds: Store) -> None:
    # an imported function, and one the module defines: no class, yet the data's to change
    failed = "accepts: it failed on the value given, and this error is raised in its place."
    assert texts(kinds, "Dotted.validate")[:1] == [
        in_data("Dotted", f"a value that `import_path(value)` {failed}")
    ]
    assert texts(kinds, "Textual.validate")[:1] == [
        in_data("Textual", f"a value that `as_text(value)` {failed}")
    ]


@pytest.mark.parametrize(
    ("owner", "said"),
    [
        pytest.param(
            "Places",
            "another value: `Places.validate` holds it as `value`, and the check at line 59 "
            "(`cls.places` is not None and `decimals` is greater than `cls.places`) reads only "
            "`value`, what the function computes from it (`decimals`) and the field's `places` "
            "(“too many decimal places”).",
            id="a constraint the type's declaration sets is no state",
        ),
        pytest.param(
            "Size",
            "another value: `Size.validate` holds it as `v`, and the check at line 78 (`found` "
            "is None) reads only `v` and what the function computes from it (`found`) "
            "(“no size”).",
            id="a pattern the module compiles is as fixed as a constant",
        ),
    ],
)
def test_a_check_of_the_value_and_what_the_type_fixes_asks_another_value(
    kinds: Store, owner: str, said: str
) -> None:
    assert texts(kinds, f"{owner}.validate")[:1] == [in_data(owner, said)]


def test_a_class_attribute_the_validator_sets_is_state(kinds: Store) -> None:
    # `cls.limit` is assigned on the class at run time: no constraint a declaration fixes
    found = texts(kinds, "Counted.validate")
    assert not any("another value" in t for t in found), found


def test_a_constant_of_the_class_is_no_constraint_of_the_field(kinds: Store) -> None:
    # `cls.unit_re` is the type's own pattern: no "field's `unit_re`" a declaration sets
    found = texts(kinds, "Size.validate_unit")
    assert not any("the field's" in t for t in found), found
