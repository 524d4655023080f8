"""A validator the framework runs on the user's data (a `*_validator` function that returns
the value, a type's `__get_validators__` method, a `@field_validator`) is said as the value
the data gives the field, with the field's constraint; a plain function keeps its argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "forms/__init__.py": """
        from forms.checks import multiple_of_validator, constant_validator, scale, Order
        from forms.checks import FutureDay, PastDay, tagged_validator, ChatRequest
        from forms.checks import nothing_validator, finite_validator, distinct_validator
        """,
    "forms/checks.py": """
        import math
        from datetime import date
        from typing import TYPE_CHECKING

        from pydantic import BaseModel, field_validator


        def multiple_of_validator(x, multiple_of):
            if not (x % multiple_of == 0):
                raise ValueError("multiple_of")
            return x


        def constant_validator(v, field):
            if v != field.default:
                raise ValueError("not the constant")
            return v


        def finite_validator(v, allow_nan):
            if allow_nan is False and (math.isnan(v) or math.isinf(v)):
                raise ValueError("not a finite number")
            return v


        def distinct_validator(v):
            if v is None:
                return v
            for i, value in enumerate(v, start=1):
                if value in v[i:]:
                    raise ValueError("a repeated item")
            return v


        def nothing_validator(v):
            if v is None:
                return v
            raise ValueError("only None")


        def tagged_validator(v, step):
            if v % step != 0:
                raise ValueError("not on a step")
            print(v)


        def scale(x, step):
            if x % step != 0:
                raise ValueError("x must be a multiple of step")
            return x


        class FutureDay(date):
            @classmethod
            def __get_validators__(cls):
                yield cls.validate

            @classmethod
            def validate(cls, value):
                if value <= date.today():
                    raise ValueError("not in the future")
                return value


        if TYPE_CHECKING:
            PastDay = date
        else:

            class PastDay(date):
                @classmethod
                def __get_validators__(cls):
                    yield cls.validate

                @classmethod
                def validate(cls, value):
                    if value >= date.today():
                        raise ValueError("not in the past")
                    return value


        class Order(BaseModel):
            quantity: int

            @field_validator("quantity")
            @classmethod
            def _check_quantity(cls, v):
                if v % 10 != 0:
                    raise ValueError("quantity must be a multiple of 10")
                return v


        class ChatRequest(BaseModel):
            model: str
            max_tokens: int

            @field_validator("max_tokens")
            @classmethod
            def validate_max_tokens(cls, v):
                if v <= 0:
                    raise ValueError("max_tokens must be positive")
                return v

            @field_validator("model")
            @classmethod
            def validate_model(cls, v):
                name = v.strip()
                if name not in ("small", "large"):
                    raise ValueError("unknown model")
                return v
        """,
}


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("forms"), "forms", FILES)


def first(store: Store, function: str) -> str:
    return page_in_function(store, "forms", function).solutions[0].text


def test_a_validator_speaks_of_the_value_and_the_fields_constraint(forms: Store) -> None:
    text = first(forms, "multiple_of_validator")
    assert text.startswith(
        "In the data you validate, give the field a value that is a multiple of the field's "
        "`multiple_of`."
    )
    assert "argument `x`" not in text


def test_a_validator_letting_only_none_by_asks_for_none(forms: Store) -> None:
    assert first(forms, "nothing_validator").startswith(
        "In the data you validate, give the field a value that is None."
    )


def test_none_let_by_before_a_check_is_no_way_out_of_the_check(forms: Store) -> None:
    text = first(forms, "distinct_validator")
    assert text.startswith("In the data you validate, give the field another value:")
    assert "that is None" not in text


def test_a_value_not_nan_or_infinite_is_a_finite_number(forms: Store) -> None:
    assert first(forms, "finite_validator").startswith(
        "In the data you validate, give the field a value that is a finite number (not `nan` "
        "or an infinity)."
    )


def test_a_field_attribute_is_the_fields_own(forms: Store) -> None:
    assert first(forms, "constant_validator").startswith(
        "In the data you validate, give the field a value equal to the field's `default`."
    )


def test_a_types_validator_names_the_type_the_field_is_declared_as(forms: Store) -> None:
    assert first(forms, "FutureDay.validate").startswith(
        "In the data you validate, give a field declared as `FutureDay` a value above "
        "`date.today()`."
    )


def test_a_type_defined_in_a_branch_is_read_as_well(forms: Store) -> None:
    # `if TYPE_CHECKING: ... else: class PastDay(date)`: its hooks are read all the same
    assert first(forms, "PastDay.validate").startswith(
        "In the data you validate, give a field declared as `PastDay` a value below "
    )


def test_a_field_validator_names_its_field_and_model(forms: Store) -> None:
    assert first(forms, "Order._check_quantity").startswith(
        "In the data you validate, give the field `quantity` of `Order` a value that is a "
        "multiple of `10`."
    )


def test_a_request_models_validator_names_the_request_field(forms: Store) -> None:
    assert first(forms, "ChatRequest.validate_max_tokens").startswith(
        "In the request you send (its JSON body), give the field `max_tokens` of "
        "`ChatRequest` a value above `0`."
    )


def test_a_local_computed_from_the_value_is_followed_to_it(forms: Store) -> None:
    assert first(forms, "ChatRequest.validate_model").startswith(
        "In the request you send (its JSON body), give the field `model` of `ChatRequest` a "
        "value that is one of `'small'`, `'large'`"
    )


def test_a_function_that_is_no_validator_keeps_its_argument(forms: Store) -> None:
    # called by the user's code: the argument is theirs to pass
    assert first(forms, "scale") == (
        "Pass the argument `x` of `scale` as a multiple of the argument `step`."
    )
    # named like one, but gives nothing back: no value the framework validates
    assert first(forms, "tagged_validator").startswith(
        "Pass the argument `v` of `tagged_validator`"
    )
