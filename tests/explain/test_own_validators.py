"""An assignment the object's own registered validators refused says to assign a value they
accept (`explain/own_validators.py`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_with_message

from errdex.store import Store

RECORDS = {
    "records/__init__.py": "",
    "records/base.py": """
        class RecordError(Exception):
            pass


        class Record:
            __checks__ = []
            __after_validators__ = []

            def __setattr__(self, name, value):
                if name.startswith("_"):
                    raise AttributeError("private names are not assigned")
                values = {**self.__dict__, name: value}
                for check in self.__checks__:
                    try:
                        values = check(values)
                    except ValueError as exc:
                        raise RecordError(f"a check failed: {exc}")
                errors = []
                for always, validator in self.__after_validators__:
                    try:
                        values = validator(type(self), values)
                    except (ValueError, TypeError) as exc:
                        errors.append(exc)
                if errors:
                    raise RecordError(f"the validators refused: {errors}")
                self.__dict__.update(values)


        class Entry:
            __before_validators__ = []

            def __setattr__(self, name, value):
                values = {**self.__dict__, name: value}
                for validator in self.__before_validators__:
                    try:
                        values = validator(type(self), values)
                    except ValueError as exc:
                        raise RecordError(f"a validator refused: {exc}")
                self.__dict__.update(values)


        class Form:
            __fields__ = {}

            def __setattr__(self, name, value):
                field = self.__fields__.get(name)
                if field:
                    value, error_ = field.validate(value, dict(self.__dict__), loc=name)
                    if error_:
                        raise RecordError(f"the field refused the value: {error_}")
                self.__dict__[name] = value


        def _checked_setattr(self, name, value):
            field = self.__fields__.get(name)
            value, problem = field.validate(value, {}, loc=name)
            if problem:
                raise RecordError(f"the checked field refused: {problem}")
            object.__setattr__(self, name, value)


        def _loose_setattr(self, name, value):
            field = self.__fields__.get(name)
            value, problem = field.validate(value, {}, loc=name)
            if problem:
                raise RecordError(f"the loose field refused: {problem}")


        def checked(cls):
            setattr(cls, '__setattr__', _checked_setattr)
            return cls
        """,
}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("records"), "records", RECORDS)


def test_the_errors_a_loop_over_the_validators_collected_name_the_assignment(
    records: Store,
) -> None:
    page = page_with_message(records, "records", "the validators refused")
    assert page.solutions[0].text.startswith(
        "Assign a value your class's own validators accept, or change the validator that "
        "refuses it: on assignment `Record.__setattr__` runs each of "
        "`self.__after_validators__`"
    )


def test_a_loop_over_what_is_not_named_validators_is_not_read_so(records: Store) -> None:
    page = page_with_message(records, "records", "a check failed")
    assert not any(o.startswith("Assign a value") for o in offered(page))


def test_a_raise_in_the_handler_around_a_validator_s_call_names_the_assignment(
    records: Store,
) -> None:
    page = page_with_message(records, "records", "a validator refused")
    assert page.solutions[0].text.startswith("Assign a value your class's own validators accept")
    assert "`self.__before_validators__`" in page.solutions[0].text


def test_the_field_s_own_validation_on_assignment_names_a_value_it_accepts(
    records: Store,
) -> None:
    page = page_with_message(records, "records", "the field refused the value")
    assert page.solutions[0].text.startswith(
        "Assign the field a value its declared type and its validators accept: on "
        "assignment `Form.__setattr__` validates the new value with `field.validate(...)`"
    )


def test_a_module_function_set_as_the_class_s_setattr_is_read_so(records: Store) -> None:
    page = page_with_message(records, "records", "the checked field refused")
    assert page.solutions[0].text.startswith(
        "Assign the field a value its declared type and its validators accept: on "
        "assignment `_checked_setattr`, set as the class's `__setattr__`,"
    )


def test_a_module_function_no_class_is_given_as_setattr_is_not(records: Store) -> None:
    page = page_with_message(records, "records", "the loose field refused")
    assert not any(o.startswith("Assign the field") for o in offered(page))
