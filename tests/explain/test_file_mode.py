"""A file refused for the mode it was opened in: the message's mode, said on the `open()`
call the user makes; only when the condition tests the file's mode and the message names
the mode it takes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "uploads/__init__.py": """
        from uploads.fields import upload
        """,
    "uploads/fields.py": """
        import io
        import typing


        class _Field:
            def __init__(self, name, value):
                fileobj = value
                if isinstance(fileobj, io.TextIOBase):
                    raise TypeError("File uploads must be opened in binary mode, not text mode.")
                self.file = fileobj


        class _Writer:
            def __init__(self, out):
                if not isinstance(out, (io.TextIOBase, typing.TextIO)):
                    raise TypeError("The report is written in text mode: open it so.")
                self.out = out


        class _Other:
            def __init__(self, out):
                if isinstance(out, io.TextIOBase):
                    raise TypeError("Text files are not supported here.")
                if isinstance(out, io.BytesIO):
                    raise TypeError("An in-memory buffer cannot be used in binary mode.")


        def upload(name, value, out):
            _Field(name, value)
            _Writer(out)
            _Other(out)
        """,
}


@pytest.fixture(scope="module")
def uploads(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("uploads"), "uploads", FILES)


def test_a_text_file_refused_is_opened_in_binary_mode(uploads: Store) -> None:
    page = page_with_message(uploads, "uploads", "File uploads must be opened in binary mode")
    assert page.solutions[0].text == (
        'Open the file in binary mode (`open(path, "rb")`, or `"wb"` to write), as the '
        "message says: “File uploads must be opened in binary mode, not text mode.”"
    )
    fix = page.solutions[0].fix
    assert fix is not None
    assert (fix.before, fix.after) == ("file = open(PATH)", 'file = open(PATH, "rb")')


def test_a_file_that_must_be_text_is_opened_in_text_mode(uploads: Store) -> None:
    page = page_with_message(uploads, "uploads", "The report is written in text mode")
    assert page.solutions[0].text.startswith(
        'Open the file in text mode (`open(path, "r")`, or `"w"` to write), as the message says'
    )


@pytest.mark.parametrize(
    "message",
    [
        "Text files are not supported here.",  # no mode named: nothing said of what to open
        "An in-memory buffer cannot be used",  # `BytesIO` is no file the user opens
    ],
)
def test_no_mode_without_the_message_naming_the_one_the_check_takes(
    uploads: Store, message: str
) -> None:
    page = page_with_message(uploads, "uploads", message)
    assert not any(s.text.startswith("Open the file") for s in page.solutions)
