"""Lookup of a message whose searchable words are common ones (`by must be 'value' or
'name', got 'bogus'`: `must` and `got`), in a catalog where more texts hold them than a
search takes; and of a message that is one quoted value (`ValueError: 'nope'`, the text of
a caught `KeyError` passed on); a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import lookup_text, parse_paste
from errdex.store.base import Store
from samples import indexed_store

# A catalog holds many texts of common words. Many short checks written `... must ...,
# got ...`: each holds the paste's two long words, and is shorter than the text the paste
# comes from (bm25 ranks them first).
_CHECKS = "\n".join(
    f"""
def check_{i}(value):
    if value is None:
        raise ValueError(f"field{i} of the form must {{value}}, got {{type(value)}}")
"""
    for i in range(90)
)
# Short texts keyed by a word of the paste (`value`, their longest): they fill the texts
# looked up by the paste's keys.
_VALUES = "\n".join(
    f"""
def value_{i}(x):
    raise ValueError(f"value {i}: {{x}}")
"""
    for i in range(30)
)
# A check whose template reads the whole paste too, with fewer words of its own: found by
# the paste's words, it leaves no round wider to look further.
_ANY_CHECK = """
def check(name, one, other, value):
    raise ValueError(f"{name} must be {one!r} or {other!r}, got {value!r}")
"""
LIB = {
    "lib/__init__.py": "",
    "lib/checks.py": _CHECKS + _VALUES + _ANY_CHECK,
    "lib/base.py": """
        def fail(message):
            raise ValueError(message)
        """,
    "lib/choices.py": """
        def enum_options(enum_cls, by):
            if by not in ("value", "name"):
                raise ValueError(f"by must be 'value' or 'name', got {by!r}")
            return list(enum_cls)

        def coerce(by_value, v):
            try:
                return by_value[str(v)]
            except KeyError as e:
                raise ValueError(str(e)) from e
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("common"), "lib", {"1.0": LIB})
    yield db
    db.close()


def test_a_message_of_common_words_is_found_by_its_runs_of_words(store: Store) -> None:
    found = lookup_text(store, "ValueError: by must be 'value' or 'name', got 'bogus'").matches
    assert [(m.file, m.line) for m in found][:1] == [("lib/choices.py", 4)]
    assert found[0].values == {"by": "bogus"}


def test_a_message_of_one_quoted_value_finds_the_raise_given_one_value(store: Store) -> None:
    # `str(e)` of a caught `KeyError('nope')` is `'nope'`, quotes and all: the parser takes
    # them off to read the message, and keeps that it was one value.
    evidence = parse_paste("ValueError: 'nope'").errors[0]
    assert (evidence.message, evidence.quoted) == ("nope", True)
    found = lookup_text(store, "ValueError: 'nope'").matches
    # Both raise the value they are given; only one's is a caught KeyError's quoted text.
    assert [(m.file, m.line) for m in found][:2] == [("lib/choices.py", 11), ("lib/base.py", 3)]


def test_quotes_a_user_wrote_around_a_message_are_no_value() -> None:
    assert parse_paste("`No scheme supplied`").errors[0].quoted is False
    assert parse_paste('ValueError: "line one\nline two"').errors[0].quoted is False
