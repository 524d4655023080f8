"""A raise whose text is mostly values (`{label} {loc} is a file.` of a long path): too
little of it is written out to count as a reading, so it is matched by its class; of the
raises of that class, the one whose words span the paste comes first. Indexed into a real
SQLite file."""

from __future__ import annotations

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "paths/__init__.py": "",
    "paths/errors.py": """
        class BadParameter(Exception):
            pass
        """,
    "paths/check.py": """
        import os

        from .errors import BadParameter

        def check(value, label, file_okay, dir_okay, writable):
            loc = repr(value)
            if not file_okay and os.path.isfile(value):
                raise BadParameter(f"{label} {loc} is a file.")
            if not dir_okay and os.path.isdir(value):
                raise BadParameter(f"{label} {loc} is a directory.")
            if writable and not os.access(value, os.W_OK):
                raise BadParameter(f"{label} {loc} is not writable.")
            return value
        """,
}

store = indexed_fixture("short-text", "paths", {"1.0": PACKAGE})


def test_the_raise_whose_few_words_span_the_paste_first(store: Store) -> None:
    long_path = "/home/dev/project/build/output/artifacts/2024-06-01/run-17/some_path"
    paste = f"BadParameter: dir '{long_path}' is a file."
    first = lookup_text(store, paste).matches[0]
    assert first.message == "{label} {loc} is a file."
    assert "its text spans the message, though little of it is written out" in first.why


def test_a_directory_finds_its_own_raise(store: Store) -> None:
    long_path = "/home/dev/project/build/output/artifacts/2024-06-01/run-17/some_dir"
    first = lookup_text(store, f"BadParameter: file '{long_path}' is a directory.").matches[0]
    assert first.message == "{label} {loc} is a directory."
