"""A `validate_*` function of a module named for validating, which a framework appends to a
field's validators by name elsewhere, is a validator of the user's data; when the call
its `try` makes on the value fails (`config.json_loads(v)` raising `TypeError`), the way
out is a value that call accepts, in the data, the model's `config` beside it being the
framework's, not the user's argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "models/__init__.py": "",
    "models/errors.py": """
        class JsonError(ValueError):
            pass


        class JsonTypeError(TypeError):
            pass
        """,
    "models/validators.py": """
        from models import errors


        def validate_json(v, config):
            if v is None:
                return v
            try:
                return config.json_loads(v)
            except ValueError:
                raise errors.JsonError()
            except TypeError:
                raise errors.JsonTypeError()


        def validate_cached(v, cache):
            try:
                return cache.load(v)
            except TypeError:
                raise errors.JsonTypeError()
        """,
    "models/fields.py": """
        from models.validators import validate_json, validate_cached


        def make_generic_validator(f):
            return f


        class Field:
            def __init__(self, parse_json):
                self.pre_validators = []
                if parse_json:
                    self.pre_validators.append(make_generic_validator(validate_json))
                    self.pre_validators.append(make_generic_validator(validate_cached))

            def validate(self, v):
                if not self.pre_validators:
                    raise TypeError("no validators")
                return v
        """,
    "models/validation.py": """
        from models import errors


        def validate_port(value):
            try:
                return int(value)
            except ValueError:
                raise errors.JsonError()
        """,
    "models/loading.py": """
        from models import errors


        def validate_text(v, config):
            try:
                return config.json_loads(v)
            except TypeError:
                raise errors.JsonTypeError()
        """,
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", FILES)


def texts(store: Store, function: str, exception: str) -> list[str]:
    return [s.text for s in page_of(store, function, exception).solutions]


def page_of(store: Store, function: str, exception: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("models")
        if s.site.function == function and (s.site.exception or "").endswith(exception)
    ]
    return build_page(store, site.id)


def test_the_call_a_validator_tried_on_the_value_is_the_data_to_change(models: Store) -> None:
    expected = (
        "In the data you validate, give the field a value that `config.json_loads(v)` "
        "accepts: it failed on the value given, and this error is raised in its place. "
        "`validate_json` is a validator the framework runs on that value: the check is of "
        "your data, not of a call in your code."
    )
    assert texts(models, "validate_json", "JsonTypeError")[:1] == [expected]
    assert texts(models, "validate_json", "JsonError")[:1] == [expected]


def test_only_the_frameworks_own_objects_may_be_read_beside_the_value(models: Store) -> None:
    # `cache` is no object the framework hands a validator: what it holds decides too
    page = page_of(models, "validate_cached", "JsonTypeError")
    assert not any("In the data you validate" in s.text for s in page.solutions)
    # nothing else: the page says which call failed, on what input
    assert page.solutions == []
    assert "It runs when `cache.load(v)` (the `try` at line 18) raised" in page.what_it_means


def test_a_module_not_named_for_validating_makes_no_validator(models: Store) -> None:
    page = page_of(models, "validate_text", "JsonTypeError")
    assert not any("In the data you validate" in s.text for s in page.solutions)
    assert page.solutions == []
    assert "It runs when `config.json_loads(v)` (the `try` at line 7) raised" in (
        page.what_it_means
    )


def test_a_validate_function_nothing_hands_on_is_no_frameworks_validator(models: Store) -> None:
    # `validate_port` is a function the user calls: no framework runs it on a field
    found = texts(models, "validate_port", "JsonError")
    assert not any("validator the framework runs" in t for t in found), found
    assert [t.split(":")[0] for t in found] == ["Give `validate_port` another `value`"], found
