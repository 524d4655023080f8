"""Sites that raise the very same text, looked up by the message line alone: the one a user
most likely hit first, and the reason said. Indexed into a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_store

PACKAGE = {
    "conf/__init__.py": "",
    "conf/reader.py": """
        def parse(text, strict, nested):
            if strict:
                if nested:
                    if not text.strip():
                        raise ValueError("empty input")
            return text

        def load(text):
            if not text:
                raise ValueError("empty input")
            return parse(text, False, False)

        def load_file(path):
            return parse(open(path).read(), True, False)

        def load_nested(text):
            return parse(text, True, True)

        def validate(value, message):
            if value is None:
                raise TypeError(message)
            return value

        def check_port(port):
            validate(port, "a port is required")
            return port

        def read_port(port):
            if port is None:
                raise TypeError("a port is required")
            return port
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root: Path = tmp_path_factory.mktemp("same-text")
    opened = indexed_store(root, "conf", {"1.0": PACKAGE})
    yield opened
    opened.close()


def test_the_site_behind_fewer_conditions_before_the_one_called_more(store: Store) -> None:
    matches = lookup_text(store, "ValueError: empty input").matches
    assert [(m.function, m.raised_at) for m in matches[:2]] == [("load", 2), ("parse", 2)]
    assert (
        matches[0]
        .why[-1]
        .endswith(
            "load is shown first: it raises behind fewer conditions (the common path, not a "
            "special case)"
        )
    )


def test_a_raise_of_its_own_before_a_call_of_a_raising_helper(store: Store) -> None:
    matches = lookup_text(store, "TypeError: a port is required").matches
    first = matches[0]
    assert (first.function, first.kind) == ("read_port", "raise")
    assert [(r.function, r.kind) for r in first.others] == [("check_port", "helper")]
