"""A message of several paragraphs (`str(exc)` holding blank lines), pasted alone: the
part a class adds when the raise surely gives it what it tests tells two raises apart.
Indexed into a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import lookup_text
from errdex.match.paste import parse_paste
from errdex.store.base import Store
from samples import indexed_store

PACKAGE = {
    "grammar/__init__.py": "",
    "grammar/errors.py": """
        class UnexpectedInput(Exception):
            def _format_expected(self, expected):
                return "Expected one of: \\n\\t* %s\\n" % "\\n\\t* ".join(expected)

        class UnexpectedCharacters(UnexpectedInput):
            def __init__(self, seq, pos, line, allowed=None):
                self.char = seq[pos]
                self.line = line
                self.allowed = allowed
                self._context = seq

            def __str__(self):
                message = "No terminal matches '%s' at line %d" % (self.char, self.line)
                message += "\\n\\n" + self._context
                if self.allowed:
                    message += self._format_expected(self.allowed)
                return message
        """,
    "grammar/lexer.py": """
        from .errors import UnexpectedCharacters

        def next_token(text, pos, line, types):
            allowed = types - {"WS"}
            if not allowed:
                allowed = {"<END-OF-FILE>"}
            raise UnexpectedCharacters(text, pos, line, allowed=allowed)
        """,
    "grammar/earley.py": """
        from .errors import UnexpectedCharacters

        def scan(stream, i, line, to_scan):
            raise UnexpectedCharacters(stream, i, line, {item.name for item in to_scan})
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("grammar"), "grammar", {"1.0": PACKAGE})
    yield db
    db.close()


def test_a_class_led_paste_reads_on_over_blank_lines() -> None:
    text = "UnexpectedCharacters: No terminal matches 'A' at line 1\n\nAAA\n  ^\n"
    [error] = parse_paste(text).errors
    assert error.exception == "UnexpectedCharacters"
    assert error.message == "No terminal matches 'A' at line 1\n\nAAA\n  ^"
    # Prose in paragraphs stays paragraphs, each a message of its own.
    assert len(parse_paste("first things first\n\nthen the rest").errors) == 2


def test_the_part_a_surely_given_value_adds_decides(store: Store) -> None:
    # The lexer's raise always gives `allowed` (a fallback fills it in): its text always
    # ends with `Expected one of:`; the scanner's set may be empty, and then it does not.
    without = "UnexpectedCharacters: No terminal matches 'A' at line 1\n\nAAA\n^\n"
    found = lookup_text(store, without).matches[0]
    assert (found.file, found.raised_at) == ("grammar/earley.py", 1)
    # With it, either raise may have printed it: one text raised at two sites.
    found = lookup_text(store, without + "Expected one of: \n\t* NAME\n").matches[0]
    assert found.raised_at == 2
    assert {found.file, *(ref.file for ref in found.others)} == {
        "grammar/earley.py",
        "grammar/lexer.py",
    }
    assert not found.confident
