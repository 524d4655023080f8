"""Real packages from the package index (pinned), indexed into one SQLite catalog, looked up
with the text as their users see it: composed by the exception class, printed by the
framework, or chosen from a message table by the concrete class."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.match import lookup_text
from errdex.match.results import Match
from errdex.sources.pypi import pypi_source
from errdex.store import open_store
from errdex.store.base import Store

pytestmark = pytest.mark.network

PACKAGES = ("werkzeug==3.0.3", "click==8.1.7", "marshmallow==3.21.3", "jinja2==3.1.4")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("real")
    with open_store(root / "errdex.db") as opened:
        cache = FactsCache(root / "facts.sqlite3")
        for spec in PACKAGES:
            source = pypi_source(spec, directory=root / "downloads")
            index_source(source, opened, cache=cache, workers=1)
        yield opened


def top(store: Store, text: str) -> Match:
    result = lookup_text(store, text)
    assert result.matches, result.nearest
    return result.matches[0]


def test_werkzeug_str_from_class_attributes(store: Store) -> None:
    found = top(
        store,
        "werkzeug.exceptions.BadRequest: 400 Bad Request: Failed to decode JSON object: "
        "Expecting value: line 1 column 1 (char 0)",
    )
    assert (found.project, found.file, found.function) == (
        "Werkzeug",
        "werkzeug/wrappers/request.py",
        "Request.on_json_loading_failed",
    )
    assert found.shown == "400 Bad Request: Failed to decode JSON object: {e}"
    assert found.values == {"e": "Expecting value: line 1 column 1 (char 0)"}


def test_click_prints_error_and_format_message(store: Store) -> None:
    found = top(store, "Error: Invalid value for '-f': Path 'x.txt' does not exist.")
    # `self.fail(...)` in `Path.convert` makes `ParamType.fail` raise: the raise, naming the call
    assert (found.project, found.file, found.function) == (
        "click",
        "click/types.py",
        "ParamType.fail",
    )
    assert found.called_at is not None and found.called_at.function == "Path.convert"
    assert found.shown is not None and found.shown.startswith("Error: Invalid value for ")


def test_marshmallow_entry_of_the_concrete_field_class(store: Store) -> None:
    found = top(store, "marshmallow.exceptions.ValidationError: Not a valid integer.")
    assert found.file == "marshmallow/fields.py"
    assert "Not a valid integer." in (found.shown, found.message)


def test_jinja_message_built_by_a_property_at_the_raise(store: Store) -> None:
    found = top(store, "jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'user'")
    assert (found.file, found.function) == (
        "jinja2/runtime.py",
        "Undefined._fail_with_undefined_error",
    )
    assert found.values["self._undefined_name"] == "user"
