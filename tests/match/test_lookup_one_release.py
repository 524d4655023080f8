"""A catalog holding one release of a project: settling a lookup's matches has no other
release to choose or name, so it reads no error's rows again. Indexed into a real SQLite
file."""

from __future__ import annotations

import pytest

from errdex.match import lookup_text
from errdex.store.base import Store, StoredSite
from samples import indexed_fixture

PACKAGE = {
    "units/__init__.py": "",
    "units/parse.py": """
        def parse_size(text):
            if not text[:-1].isdigit():
                raise ValueError(f"not a size: {text!r}")
            return int(text[:-1])

        def parse_rate(text):
            if not text.endswith("/s"):
                raise ValueError(f"not a size: {text!r}")
            return parse_size(text[:-2])
        """,
}

store = indexed_fixture("one-release", "units", {"1.0": PACKAGE})


def test_one_release_is_settled_without_reading_its_errors_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[str] = []
    get_error = store.get_error

    def reading(error_id: str) -> list[StoredSite]:
        read.append(error_id)
        return get_error(error_id)

    monkeypatch.setattr(store, "get_error", reading)
    first = lookup_text(store, "ValueError: not a size: '12x/s'").matches[0]

    assert (first.raised_at, first.versions, first.newest) == (2, [], None)
    assert first.function == "parse_size"
    assert read == []
