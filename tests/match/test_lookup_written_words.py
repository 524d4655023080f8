"""Lookup of a text by the words written in it: a placeholder stands for any words the paste
adds (`Missing {param_type}{hint}.` for `Missing argument 'name'.`), and a message of one
value (`KeyError: 'k'`) finds the raises given one value; a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.indexing import index_source
from errdex.match import lookup_text
from errdex.sources import open_source
from errdex.store.base import Store
from samples import indexed_store, write_package

# Two projects, as one catalog holds them: `cli` says which parameter is missing through
# an attribute set elsewhere (its kind is in no text), `other` writes the kind out.
CLI = {
    "cli/__init__.py": "",
    "cli/errors.py": """
        class MissingParameter(Exception):
            def __init__(self, param, param_type=None):
                super().__init__()
                self.param = param
                self.param_type = param_type

            def format_message(self):
                hint = f" '{self.param}'"
                return f"Missing {self.param_type}{hint}."

            def show(self):
                print(f"Error: {self.format_message()}")
        """,
    "cli/core.py": """
        from cli.errors import MissingParameter

        def process_value(param, value):
            if value is None:
                raise MissingParameter(param.name, param.kind)
            return value

        class Headers:
            def __getitem__(self, key):
                for name, value in self.items:
                    if name == key:
                        return value
                raise KeyError(key)
        """,
}
OTHER = {
    "other/__init__.py": "",
    "other/parser.py": """
        class UsageError(Exception):
            pass

        def parse(argument, seen):
            if argument not in seen:
                raise UsageError(f"Missing argument '{argument}' in this command.")
            if not seen:
                raise KeyError("no arguments were seen at all")
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("written")
    db = indexed_store(root, "cli", {"1.0": CLI})
    tree = write_package(root / "other", OTHER)
    index_source(open_source(str(tree), project="other", version="2.0"), db)
    yield db
    db.close()


def test_a_text_of_few_written_words_beside_one_holding_more_of_the_paste(store: Store) -> None:
    # `other`'s text holds both of the paste's words and reads it in part; `cli`'s, only
    # `Missing`, and reads it whole: its kind is a value no text of the catalog holds.
    found = lookup_text(store, "Error: Missing argument 'lastname'.").matches
    assert ("cli/core.py", 6) in [(m.file, m.line) for m in found]
    first = found[0]
    assert (first.file, first.line) == ("cli/core.py", 6)
    assert first.shown == "Error: Missing {param.kind} '{param.name}'."
    assert first.values == {"param.kind": "argument", "param.name": "lastname"}


def test_a_message_of_one_value_finds_the_raise_given_one_value(store: Store) -> None:
    found = lookup_text(store, "KeyError: 'Content-Type'").matches
    assert [(m.file, m.line) for m in found][:1] == [("cli/core.py", 14)]
    # A message of words is no value alone: the raise given one value is not its answer.
    assert not lookup_text(store, "KeyError: no such header here").matches
