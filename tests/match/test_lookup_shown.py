"""Lookup of the text as the user saw it: composed by the exception class, printed by a
framework, or a message table's entry for one class; indexed into a real SQLite file."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest

from errdex.match import lookup_text
from errdex.match.results import Match
from errdex.store.base import Store
from samples import indexed_store

PACKAGE = {
    "site/__init__.py": "",
    "site/exceptions.py": """
        STATUS = {400: "Bad Request", 404: "Not Found"}

        class HTTPException(Exception):
            code = None
            description = None

            def __init__(self, description=None):
                super().__init__()
                if description is not None:
                    self.description = description

            def __str__(self):
                return f"{self.code} {STATUS.get(self.code)}: {self.description}"

        class BadRequest(HTTPException):
            code = 400
            description = (
                "The browser (or proxy) sent a request that this server could not understand."
            )

        class NotFound(HTTPException):
            code = 404
            description = "The requested URL was not found on the server."

        class UsageError(Exception):
            def __init__(self, message):
                super().__init__(message)
                self.message = message

            def show(self):
                echo(f"Error: {self.format_message()}")

            def format_message(self):
                return f"Invalid value for option: {self.message}"
        """,
    "site/fields.py": """
        class ValidationError(Exception):
            pass

        class Field:
            default_error_messages = {"invalid": "Not a valid value."}

            def make_error(self, key):
                return ValidationError(self.error_messages[key])

            def check(self, value):
                if not value:
                    raise self.make_error("invalid")

        class Integer(Field):
            default_error_messages = {"invalid": "Not a valid integer."}

        class Email(Field):
            default_error_messages = {"invalid": "Not a valid email address."}
        """,
    "site/views.py": """
        from site.exceptions import BadRequest, NotFound, UsageError

        def page(request, found):
            if request.broken:
                raise BadRequest()
            if not found:
                raise NotFound()
            if request.bad_option:
                raise UsageError(f"{request.option!r} is not a number")
            raise ValueError("no handler for the request", request.path)
        """,
    "site/cli.py": """
        from site.exceptions import UsageError

        class Context:
            def fail(self, message):
                raise UsageError(message)

        def parse_args(ctx, args):
            if args:
                ctx.fail(f"Got unexpected extra arguments ({' '.join(args)})")
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("site"), "site", {"1.0": PACKAGE})
    yield db
    db.close()


def top(store: Store, text: str) -> Match:
    result = lookup_text(store, textwrap.dedent(text).strip())
    assert result.matches, result.nearest
    return result.matches[0]


def test_str_composed_by_the_class_finds_the_raise(store: Store) -> None:
    found = top(
        store,
        "site.exceptions.NotFound: 404 Not Found: The requested URL was not found on the server.",
    )
    assert (found.file, found.line) == ("site/views.py", 8)
    assert found.shown == "404 Not Found: The requested URL was not found on the server."
    assert found.confident
    found = top(
        store,
        "400 Bad Request: The browser (or proxy) sent a request that this server could not "
        "understand.",
    )
    assert (found.file, found.line) == ("site/views.py", 6)


def test_what_the_program_printed_with_its_values(store: Store) -> None:
    found = top(store, "Error: Invalid value for option: 'ten' is not a number")
    assert (found.file, found.line) == ("site/views.py", 10)
    assert found.values == {"request.option": "ten"}


def test_several_arguments_print_as_a_tuple(store: Store) -> None:
    found = top(store, "ValueError: ('no handler for the request', '/about')")
    assert (found.file, found.line) == ("site/views.py", 11)
    assert found.values == {"request.path": "/about"}


def test_a_subclass_entry_of_a_message_table(store: Store) -> None:
    found = top(store, "site.fields.ValidationError: Not a valid email address.")
    assert (found.file, found.line) == ("site/fields.py", 13)
    assert found.shown == "Not a valid email address."
    assert any("Email's error_messages['invalid']" in why for why in found.why)


def test_a_boxed_panel_finds_the_helpers_raise_naming_the_call(store: Store) -> None:
    # typer's error panel: the text inside the box, after `Error: `. One result: the raise
    # inside the helper, naming the call that gave it the text.
    result = lookup_text(
        store,
        textwrap.dedent(
            """
            Usage: main [OPTIONS]
            Try 'main --help' for help.
            ╭─ Error ──────────────────────────────────────────────────╮
            │ Invalid value for option: Got unexpected extra arguments │
            │ (a b)                                                    │
            ╰──────────────────────────────────────────────────────────╯
            """
        ),
    )
    first = result.matches[0]
    assert (first.file, first.line) == ("site/cli.py", 6)
    assert first.called_at is not None and (first.called_at.file, first.called_at.line) == (
        "site/cli.py",
        10,
    )
    assert first.values == {"' '.join(args)": "a b"}
    assert ("site/cli.py", 10) not in [(m.file, m.line) for m in result.matches]
