"""A caught error's text raised again under another class: the paste names the passing
raise's class and shows the caught raise's text; the passing raise is the answer, the
caught one next. Indexed into a real SQLite file."""

from __future__ import annotations

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "signing/__init__.py": "",
    "signing/errors.py": """
        class BadData(Exception):
            pass

        class BadSignature(BadData):
            pass

        class BadTimeSignature(BadSignature):
            pass

        class ConfigError(Exception):
            pass

        class ParseError(Exception):
            pass
        """,
    "signing/signer.py": """
        from .errors import BadSignature

        class Signer:
            def unsign(self, value, sig):
                if sig != value[::-1]:
                    raise BadSignature(f"Signature {sig!r} does not match")
                return value
        """,
    "signing/timed.py": """
        from .errors import BadTimeSignature, BadSignature
        from .signer import Signer

        class TimestampSigner(Signer):
            def unsign(self, value, sig):
                try:
                    result = super().unsign(value, sig)
                    sig_error = None
                except BadSignature as e:
                    sig_error = e
                    result = value
                if sig_error is not None:
                    raise BadTimeSignature(str(sig_error))
                return result
        """,
    "signing/config.py": """
        from .errors import ConfigError, ParseError

        def parse(text):
            if "=" not in text:
                raise ParseError(f"no value in line {text!r}")
            return text.split("=", 1)

        def load(text):
            try:
                return parse(text)
            except ParseError as exc:
                raise ConfigError(exc) from exc

        def load_strict(text):
            try:
                return parse(text)
            except KeyError as key:
                raise ConfigError(key) from key
        """,
}


store = indexed_fixture("reraised", "signing", {"1.0": PACKAGE})


def test_an_error_kept_and_raised_again_under_its_subclass(store: Store) -> None:
    matches = lookup_text(store, "BadTimeSignature: Signature b'abc' does not match").matches
    first, second = matches[0], matches[1]
    assert (first.file, first.function) == ("signing/timed.py", "TimestampSigner.unsign")
    assert first.values == {"sig": "b'abc'"}
    assert any("caught from signing/signer.py:7" in reason for reason in first.why)
    assert (second.file, second.exception) == ("signing/signer.py", "BadSignature")


def test_the_caught_raise_itself_when_the_paste_names_its_class(store: Store) -> None:
    first = lookup_text(store, "BadSignature: Signature b'abc' does not match").matches[0]
    assert (first.file, first.exception) == ("signing/signer.py", "BadSignature")


def test_an_except_clause_names_the_class_it_passes_on(store: Store) -> None:
    matches = lookup_text(store, "ConfigError: no value in line 'port'").matches
    # `load` catches the ParseError whose text this is; `load_strict` catches KeyError only.
    assert [(m.function, m.exception) for m in matches[:2]] == [
        ("load", "ConfigError"),
        ("parse", "ParseError"),
    ]
