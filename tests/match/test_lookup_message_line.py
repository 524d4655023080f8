"""The message line alone: which sites it finds and in what order, when the text does not
decide. A small package indexed into a real SQLite file, then pasted last lines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_store

PACKAGE = {
    "forms/__init__.py": "",
    "forms/errors.py": """
        class FormError(Exception):
            pass

        class ConfigError(FormError):
            pass

        class ClientGone(Exception):
            pass
        """,
    "forms/locales.py": """
        def get_locale(name):
            if name not in LOCALES:
                raise ValueError(f"Unsupported locale {name!r}.")
            return LOCALES[name]

        def _locale_class(locale):
            if locale not in LOCALES:
                raise ValueError(f"Unsupported locale {locale!r}.")
            return LOCALES[locale]
        """,
    "forms/numbers.py": """
        from forms.errors import FormError

        def parse_decimal(string, proper):
            if string != proper:
                raise FormError(
                    f"{string!r} is not a properly formatted decimal number. "
                    f"Did you mean {proper!r}?"
                )
        """,
    "forms/decimal_field.py": """
        from forms.errors import FormError
        from forms.numbers import parse_decimal

        class DecimalField:
            def process(self, value):
                try:
                    self.data = parse_decimal(value, "0")
                except FormError as exc:
                    raise ValueError("Not a valid decimal value.") from exc
        """,
    "forms/config.py": """
        from forms.errors import ConfigError

        def read(filename, text):
            try:
                return parse(text)
            except ValueError as e:
                raise ConfigError(f"{filename}: Error parsing TOML file: {e}") from e

        def check(section, message):
            if not section:
                raise ConfigError(message)
            if section == "extract":
                raise ConfigError("the extract section needs a mapping of methods")
        """,
    "forms/keys.py": """
        from forms.errors import FormError

        class Key:
            def __init__(self, data):
                if "kty" not in data:
                    raise FormError(f"kty is not found: {data}")
                if "crv" not in data:
                    raise FormError(f"crv is not found: {data}")
        """,
    "forms/files.py": """
        import os

        def send(path):
            if not os.path.exists(path):
                raise RuntimeError(f"File at path {path} does not exist.")
        """,
    "forms/validators.py": """
        from forms.errors import FormError

        class Length:
            def __call__(self, form, field):
                if len(field.data) > 3:
                    raise FormError("This field is too long for its form.")

        class URL:
            def __init__(self, message):
                self.message = message

            def __call__(self, form, field):
                if not field.data.startswith("http"):
                    raise FormError(self.message)
        """,
    "forms/stream.py": """
        from forms.errors import ClientGone

        def receive(channel):
            if channel.closed:
                raise ClientGone()

        def _wait(channel):
            if channel.closed:
                raise ClientGone()

        class _Upgrade(Exception):
            pass

        def connect(session):
            if session.upgrade:
                raise _Upgrade(session)

        def load(path):
            if not path:
                raise IOError
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("forms"), "forms", {"1.0": PACKAGE})
    yield db
    db.close()


def places(store: Store, text: str) -> list[tuple[str, str]]:
    return [(m.file, m.function) for m in lookup_text(store, text).matches]


def test_one_text_at_two_sites_says_so_and_keeps_both_as_candidates(store: Store) -> None:
    # The values' expressions differ (`name`, `locale`); the text a user sees does not.
    matches = lookup_text(store, "ValueError: Unsupported locale 'klingon'.").matches
    first, second = matches[:2]
    assert (first.function, first.raised_at, first.confident) == ("get_locale", 2, False)
    assert [o.function for o in first.others] == ["_locale_class"]
    assert first.why[-1] == (
        "raised at 2 sites with this text; get_locale is shown first: "
        "a public entry point, where the others include internal helpers"
    )
    assert (second.function, second.raised_at, second.same_text_as) == (
        "_locale_class",
        2,
        first.id,
    )
    assert first.public().others[0].function == "_locale_class"  # in the JSON too


def test_a_library_did_you_mean_is_part_of_its_message(store: Store) -> None:
    matches = lookup_text(
        store, "FormError: '0,,000' is not a properly formatted decimal number. Did you mean '0'?"
    ).matches
    assert (matches[0].function, matches[0].values) == (
        "parse_decimal",
        {"string": "0,,000", "proper": "0"},
    )
    assert "matched by its class" not in " ".join(matches[0].why)


def test_some_text_of_the_template_beats_a_class_matched_alone(store: Store) -> None:
    # A long path leaves the template a small share of the message, yet it explains more
    # than `raise ConfigError(message)`, which only shares the class.
    text = (
        "ConfigError: /tmp/pytest-of-dev/pytest-98/test_cli_ignores_bad_pyproject0/"
        "pyproject.toml: Error parsing TOML file: Invalid value (at end of document)"
    )
    assert places(store, text)[0] == ("forms/config.py", "read")


def test_a_whole_template_with_long_values_is_an_answer(store: Store) -> None:
    text = (
        "RuntimeError: File at path /home/dev/project/build/tmp/pytest-of-dev/pytest-100/"
        "test_file_response_with_missin0/404.txt does not exist."
    )
    result = lookup_text(store, text)
    assert [(m.function, m.confident) for m in result.matches] == [("send", False)]


def test_a_computed_text_before_a_site_that_writes_another(store: Store) -> None:
    # `Length` writes its own text, which the paste does not show; `URL` raises the
    # message its user gave it, and the paste's words name it.
    text = "FormError: Enter the address of a URL page."
    found = places(store, text)
    assert found[0] == ("forms/validators.py", "URL.__call__")
    assert found.index(("forms/validators.py", "Length.__call__")) > 0
    urls = lookup_text(store, text).matches[0]
    assert "the message names URL.__call__ (url)" in urls.why


def test_a_class_name_alone_is_read_as_the_class(store: Store) -> None:
    # A bare `raise ClientGone()` prints only the class name.
    matches = lookup_text(store, "ClientGone").matches
    assert [(m.function, m.raised_at) for m in matches] == [("receive", 2), ("_wait", 2)]
    assert matches[0].why[-1].startswith("raised at 2 sites with this text; receive is shown")


def test_a_private_class_before_its_message_is_read_as_the_class(store: Store) -> None:
    text = "_Upgrade: <forms.stream.Session object at 0x7ffa5cd6ac50>"
    assert places(store, text)[0] == ("forms/stream.py", "connect")


def test_an_old_name_of_oserror_prints_as_oserror(store: Store) -> None:
    # `raise IOError` prints `OSError`: the alias is the same class.
    assert places(store, "OSError") == [("forms/stream.py", "load")]


def test_a_whole_template_around_a_long_value_beats_class_guesses(store: Store) -> None:
    # The dict leaves `kty is not found: ` a tenth of the text, yet it is all of the
    # template, which `crv is not found: ` and the validators' `raise FormError(message)`
    # are not.
    text = (
        "FormError: kty is not found: {'kid': 'bilbo.baggins@hobbiton.example', 'use': 'sig', "
        "'n': 'n4EPtAOCc9AlkeQHPzHStgAbgs7bTZLwUBZdR8_KuKPEHLd4rHVTeT-O-XV2jRo'}"
    )
    first = lookup_text(store, text).matches[0]
    assert (first.file, first.line, first.confident) == ("forms/keys.py", 7, False)


def test_the_raise_at_the_last_frame_before_its_cause_though_its_text_differs(
    store: Store,
) -> None:
    # The cause's text matches its template; the error the program ended with shows another
    # text than its raise writes (translated where it was raised), but its frame is there.
    paste = """\
Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/forms/numbers.py", line 6, in parse_decimal
    raise FormError(
forms.errors.FormError: '1.2.3' is not a properly formatted decimal number. Did you mean '123'?

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/forms/decimal_field.py", line 10, in process
    raise ValueError("Not a valid decimal value.") from exc
ValueError: Keine gültige Dezimalzahl
"""
    first, second = lookup_text(store, paste).matches[:2]
    assert (first.function, first.line) == ("DecimalField.process", 10)
    assert first.why[-1] == "the frame and the class name this raise; its text is another"
    assert second.function == "parse_decimal"
