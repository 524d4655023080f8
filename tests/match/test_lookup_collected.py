"""A message that prints as a list or a dict (`['Not a valid email address.']`) comes from
the raise given the collection (`errors = []` ... `raise ValidationError(errors)`), not from
the check that wrote one of its texts. Indexed into a real SQLite file."""

from __future__ import annotations

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "checks/__init__.py": "",
    "checks/errors.py": """
        class ValidationError(Exception):
            def __init__(self, message):
                super().__init__(message)
                self.messages = [message] if isinstance(message, str) else message
        """,
    "checks/validate.py": """
        from .errors import ValidationError

        class Email:
            def __call__(self, value):
                if "@" not in value:
                    raise ValidationError("Not a valid email address.")
                return value

        class All:
            def __init__(self, *validators):
                self.validators = validators

            def __call__(self, value):
                errors = []
                for validator in self.validators:
                    try:
                        validator(value)
                    except ValidationError as err:
                        errors.extend(err.messages)
                if errors:
                    raise ValidationError(errors)
                return value

        def check(value, label):
            if not value:
                raise ValidationError(label)
        """,
}

store = indexed_fixture("collected", "checks", {"1.0": PACKAGE})


def test_a_list_printed_is_from_the_raise_given_the_list(store: Store) -> None:
    first = lookup_text(store, "ValidationError: ['Not a valid email address.']").matches[0]
    assert first.function == "All.__call__"
    assert any("a collection" in why for why in first.why)


def test_the_text_alone_is_still_the_check_that_wrote_it(store: Store) -> None:
    first = lookup_text(store, "ValidationError: Not a valid email address.").matches[0]
    assert first.function == "Email.__call__"
