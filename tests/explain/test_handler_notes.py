"""What a handler adds to the error it re-raises (`error.reason = ...`, `add_note`) is read
as the message's advice is; a variable the interpreter itself reads is set in the fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "term/__init__.py": "",
    "term/out.py": """
        class Console:
            def __init__(self, file):
                self.file = file

            def flush(self, text):
                try:
                    self.file.write(text)
                except UnicodeEncodeError as error:
                    error.reason = (
                        f"{error.reason}\\n*** You may need to add PYTHONIOENCODING=utf-8 "
                        f"to your environment ***"
                    )
                    raise

            def close(self):
                try:
                    self.file.close()
                except OSError as error:
                    error.add_note("Please call open() before closing it again.")
                    raise

            def write(self, text):
                try:
                    self.file.write(text)
                except OSError:
                    raise
        """,
}


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("term"), "term", FILES)


def page_of(store: Store, function: str) -> Page:
    return page_in_function(store, "term", function)


def test_the_advice_a_handler_adds_is_a_way_out_with_its_fix(term: Store) -> None:
    page = page_of(term, "Console.flush")
    assert page.solutions[0].text == (
        "Do what the message says: “You may need to add PYTHONIOENCODING=utf-8 to your environment”"
    )
    assert page.example_fix is not None
    assert page.example_fix.after == "export PYTHONIOENCODING=utf-8"
    noted = page_of(term, "Console.close")
    assert [s.text for s in noted.solutions] == [
        "Do what the message says: “Please call open() before closing it again.”"
    ]


def test_a_plain_reraise_adds_nothing(term: Store) -> None:
    assert page_of(term, "Console.write").solutions == []
