"""A validator's test that joins the value with the bound the field or the model's config
declares is said as the value within that bound (then the config's limit itself, second);
identity tests against constants as one membership; every part of an `or` together."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "models/__init__.py": """
        from models.checks import length_validator, bounded_validator, size_validator
        from models.checks import strict_number_validator, either_validator, Items
        from models.checks import doubled_validator, upper_validator, short_validator
        from models.checks import sized_validator, kind_validator, any_kind_validator
        """,
    "models/checks.py": """
        from typing import Any


        def length_validator(v, config):
            v_len = len(v)
            max_length = config.max_text_length
            if max_length is not None and v_len > max_length:
                raise ValueError("too long")
            return v


        def bounded_validator(v, field, config):
            v_len = len(v)
            min_length = (
                field.type_.min_length
                if field.type_.min_length is not None
                else config.min_text_length
            )
            if v_len < min_length:
                raise ValueError("too short")
            return v


        def size_validator(v, field):
            field_type = field.type_
            if field_type.gt is not None and not v > field_type.gt:
                raise ValueError("too small")
            return v


        def strict_number_validator(v: Any) -> int:
            if isinstance(v, int) and not (v is True or v is False):
                return v
            raise TypeError("not an int")


        def either_validator(v, field):
            wanted = getattr(field.type_, "_wanted", None)
            if wanted and v.version != wanted:
                raise ValueError("wrong version")
            return v


        def sized_validator(v, field):
            if len(v) > getattr(field.type_, "max_length", 10):
                raise ValueError("too long")
            return v


        def kind_validator(v, field):
            kind = getattr(field.type_, "_kind", None)
            if kind is not None and v.kind != kind:
                raise ValueError("wrong kind")
            return v


        def any_kind_validator(v, field):
            if v.kind != getattr(field.type_, "_kind", None):
                raise ValueError("another kind")
            return v


        def doubled_validator(v, field, config):
            v_len = len(v)
            min_length = (
                field.type_.min_length
                if field.type_.min_length is not None
                else config.min_text_length
            )
            if v_len < max(min_length, 1):
                raise ValueError("too short")
            return v


        def upper_validator(v, config):
            if config.forbid_x and v.upper() == "X":
                raise ValueError("no x")
            return v


        def short_validator(v, config):
            v_len = len(v)
            min_length = config.min_text_length
            if min_length is not None and v_len < min_length:
                raise ValueError("too short")
            return v


        class Items(list):
            min_items = None

            @classmethod
            def __get_validators__(cls):
                yield cls.items_validator

            @classmethod
            def items_validator(cls, v):
                v_len = len(v)
                if cls.min_items is not None and v_len < cls.min_items:
                    raise ValueError("too few items")
                return v
        """,
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", FILES)


def texts(store: Store, function: str) -> list[str]:
    return [s.text for s in page_in_function(store, "models", function).solutions]


def test_a_config_limit_is_the_values_length_first_and_the_limit_second(models: Store) -> None:
    first = texts(models, "length_validator")[0]
    assert first.startswith(
        "In the data you validate, give the field a value with a length at most the "
        "config's `max_text_length`."
    )
    assert first.endswith(
        "If the limit is yours to change, raise `max_text_length` in your model's config "
        "(`max_text_length = ...` in the `class Config:` of its body)."
    )
    assert "argument `config`" not in first


def test_the_fields_own_bound_else_the_configs(models: Store) -> None:
    first = texts(models, "bounded_validator")[0]
    assert first.startswith(
        "In the data you validate, give the field a value with a length at least the "
        "field's `min_length` (else the config's `min_text_length`, when it sets none)."
    )
    assert "If the limit is yours" not in first  # the field's bound comes first


def test_a_bound_the_field_declares_is_the_fields(models: Store) -> None:
    assert texts(models, "size_validator")[0].startswith(
        "In the data you validate, give the field a value above the field's `gt`."
    )


def test_a_declared_types_bound_is_the_fields(models: Store) -> None:
    first = texts(models, "Items.items_validator")[0]
    assert first.startswith(
        "In the data you validate, give a field declared as `Items` a value with a length "
        "at least the field's `min_items`."
    )


def test_identity_tests_are_one_membership_and_every_part_is_said(models: Store) -> None:
    assert texts(models, "strict_number_validator")[0].startswith(
        "In the data you validate, give the field a value that is an instance of `int` and "
        "other than `True`, `False`."
    )


def test_the_frameworks_own_objects_are_not_said_as_data(models: Store) -> None:
    # `getattr(field.type_, "_wanted", None)` is said as the field's `_wanted`, never as
    # the framework's `field` object the data's author does not see
    said = texts(models, "either_validator")
    assert said[0].startswith(
        "In the data you validate, give the field a value with a `.version` equal to the "
        "field's `_wanted`."
    ), said
    assert not any("field.type_" in t or "getattr(" in t for t in said)


def test_a_getattr_default_is_a_bound_of_its_own(models: Store) -> None:
    # `getattr(field.type_, "max_length", 10)`: 10 where the type sets none, so the bound
    # is not the field's `max_length` alone
    said = texts(models, "sized_validator")
    assert not any("the field's `max_length`" in t for t in said), said


def test_a_getattr_default_the_test_rules_out_is_the_fields_own_else_not(
    models: Store,
) -> None:
    # `kind is not None and ...`: where the type sets no `_kind`, the check does not apply
    assert texts(models, "kind_validator")[0].startswith(
        "In the data you validate, give the field a value with a `.kind` equal to the "
        "field's `_kind`."
    )
    # no such guard: where the type sets none, `v.kind` must be None, no `_kind` of it
    said = texts(models, "any_kind_validator")
    assert not any("the field's `_kind`" in t for t in said), said


def test_a_fallback_bound_within_a_longer_expression_is_not_said(models: Store) -> None:
    # `max(min_length, 1)`: the name made up for the bound would reach the page
    assert not any("bound_" in t for t in texts(models, "doubled_validator"))


def test_a_match_of_the_values_method_is_no_value_to_avoid(models: Store) -> None:
    # `v.upper() == "X"`: "other than 'X'" would let `'x'` through
    assert not any("other than" in t for t in texts(models, "upper_validator"))


def test_a_config_lower_bound_is_lowered(models: Store) -> None:
    first = texts(models, "short_validator")[0]
    assert first.startswith(
        "In the data you validate, give the field a value with a length at least the "
        "config's `min_text_length`."
    )
    assert first.endswith(
        "If the limit is yours to change, lower `min_text_length` in your model's config "
        "(`min_text_length = ...` in the `class Config:` of its body)."
    )
