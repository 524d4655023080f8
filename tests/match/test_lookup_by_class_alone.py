"""Raises matched by their class alone, told apart by what their text can be: none at all
(`raise Disconnect(code=1006)` prints nothing), a caller's (`self.message or "default"`),
or a caught error's (`raise` re-raises a text given elsewhere). Indexed into a real SQLite
file."""

from __future__ import annotations

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "sockets/__init__.py": "",
    "sockets/errors.py": """
        class Disconnect(Exception):
            def __init__(self, code=1000, reason=None):
                self.code = code
                self.reason = reason or ""

        class UsageError(Exception):
            pass
        """,
    "sockets/conn.py": """
        from .errors import Disconnect, UsageError

        def receive(message):
            raise Disconnect(message["code"], message.get("reason"))

        def send(sock, data):
            try:
                sock.send(data)
            except OSError:
                raise Disconnect(code=1006)

        def parse(parser, args):
            try:
                return parser.parse(args)
            except UsageError:
                raise

        def coerce(adapter, value):
            try:
                return adapter.validate(value)
            except ValueError as exc:
                raise UsageError(describe(exc)) from exc

        def describe(exc):
            return str(exc)
        """,
    "sockets/fields.py": """
        class DateField:
            def __init__(self, invalid_value_message=None):
                self.invalid_value_message = invalid_value_message

            def process(self, text):
                if not text:
                    raise ValueError(
                        self.invalid_value_message or "Not a valid date value."
                    )

        class FormError(Exception):
            pass

        class SelectField:
            def __init__(self, invalid_choice_message=None):
                self.invalid_choice_message = invalid_choice_message

            def validate(self, choice, choices):
                if choice not in choices:
                    raise FormError(self.invalid_choice_message or "Not a valid choice.")

        def fail(message):
            raise FormError(message)

        class IntegerField:
            def __init__(self, invalid_value_message=None):
                self.invalid_value_message = invalid_value_message

            def process(self, text):
                if not text.isdigit():
                    raise ValueError(
                        self.invalid_value_message or "Not a valid integer value."
                    )
        """,
}

store = indexed_fixture("by-class-alone", "sockets", {"1.0": PACKAGE})


def test_the_class_alone_finds_the_raise_that_gives_it_no_text_first(store: Store) -> None:
    first = lookup_text(store, "Disconnect").matches[0]
    assert first.function == "send"


def test_a_message_pasted_is_not_from_a_raise_that_gives_its_class_no_text(
    store: Store,
) -> None:
    first = lookup_text(store, "Disconnect: (1000, 'bye')").matches[0]
    assert first.function == "receive"


def test_a_re_raise_comes_after_the_raise_that_gave_the_text(store: Store) -> None:
    matches = lookup_text(store, "UsageError: Value error, 'x' is not one of 'a', 'b'.").matches
    assert matches[0].function == "coerce"
    assert any("re-raised here" in why for m in matches for why in m.why)


def test_a_text_the_user_set_finds_the_raise_it_replaces_the_default_of(store: Store) -> None:
    matches = lookup_text(store, "ValueError: Enter a date as YYYY-MM-DD.").matches
    assert matches and matches[0].function == "DateField.process"
    assert not matches[0].confident
    assert any("where set" in why for why in matches[0].why)


def test_a_settable_text_with_no_word_of_the_paste_is_found_by_its_class(store: Store) -> None:
    matches = lookup_text(store, "ValueError: Enter a whole number.").matches
    assert "IntegerField.process" in [m.function for m in matches]


def test_a_raise_whose_text_is_computed_comes_before_a_settable_default(store: Store) -> None:
    matches = lookup_text(store, "FormError: Pick one of the options.").matches
    assert [m.function for m in matches[:2]] == ["fail", "SelectField.validate"]
