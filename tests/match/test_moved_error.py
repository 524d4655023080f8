"""An error that moved to another function between releases has another id in each: a
paste that does not say which release it came from is one result that is not sure, with
the error's sites in both; a frame picks the release, and the result is its id there.
Two releases of an inline package, indexed into a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_store

OLD = {
    "plug/__init__.py": "",
    "plug/load.py": """
        def load(path):
            if not path:
                raise ValueError("no path to load the plugin from")
            return path
        """,
}
# 2.0 moved the check into a helper of its own, further down the file.
NEW = {
    "plug/__init__.py": "",
    "plug/load.py": """
        import os


        def _checked(path):
            if not path:
                raise ValueError("no path to load the plugin from")
            return os.fspath(path)


        def load(path):
            return _checked(path)
        """,
}
MESSAGE = "ValueError: no path to load the plugin from"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("moved"), "plug", {"1.0": OLD, "2.0": NEW})
    yield db
    db.close()


def test_the_message_alone_is_one_result_over_both_ids(store: Store) -> None:
    result = lookup_text(store, MESSAGE)
    best = result.matches[0]
    assert (best.version, best.function, best.line, best.confident) == ("2.0", "_checked", 7, False)
    assert [(v.first, v.last, v.function, v.line) for v in best.versions] == [
        ("2.0", "2.0", "_checked", 7),
        ("1.0", "1.0", "load", 4),
    ]
    assert len(best.merged) == 1
    assert all(m.function != "load" for m in result.matches[1:])


def test_a_frame_picks_the_older_release_and_its_id(store: Store) -> None:
    paste = f"""\
Traceback (most recent call last):
  File "/srv/app.py", line 3, in <module>
    load("")
  File "/venv/lib/python3.12/site-packages/plug/load.py", line 4, in load
    raise ValueError("no path to load the plugin from")
{MESSAGE}"""
    best = lookup_text(store, paste).matches[0]
    assert (best.version, best.function, best.line, best.confident) == ("1.0", "load", 4, True)
    old_id = {s.id for s in store.get_error(best.id)}
    assert old_id == {best.id}  # the id shown is the error's id in 1.0
    assert "version 1.0: the innermost frame is at its line 4" in best.why[-1]


def test_a_frame_line_split_at_its_path_still_picks_the_release(store: Store) -> None:
    # Pasted through a tool that cut `File "...` and put each piece on a line of its own.
    paste = f"""\
/load.py"

line 4, in load
 raise ValueError("no path to load the plugin from")

{MESSAGE}"""
    best = lookup_text(store, paste).matches[0]
    assert (best.version, best.function, best.line) == ("1.0", "load", 4)


# 2.0 renamed the function and added a hint to the text: the history links neither id to
# the other, and a paste of the text's start fits both.
RENAMED_OLD = {
    "api/__init__.py": "",
    "api/utils.py": """
        class APIError(Exception):
            pass

        def create_response_field(name, type_):
            if type_ is None:
                raise APIError(f"Invalid args for response field! Hint: check {type_}")
            return name
        """,
}
RENAMED_NEW = {
    "api/__init__.py": "",
    "api/utils.py": """
        class APIError(Exception):
            pass

        def create_model_field(name, type_, mode="validation"):
            if type_ is None:
                raise APIError(
                    f"Invalid args for response field! Hint: check that {type_} is a valid "
                    "field type; disable generating it with response_model=None."
                )
            return name
        """,
}


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    releases = {"1.0": RENAMED_OLD, "2.0": RENAMED_NEW}
    db = indexed_store(tmp_path_factory.mktemp("renamed"), "api", releases)
    yield db
    db.close()


def test_an_error_renamed_and_reworded_is_one_result_when_the_paste_fits_both(
    renamed: Store,
) -> None:
    matches = lookup_text(renamed, "APIError: Invalid args for response field").matches
    best = matches[0]
    assert (best.version, best.function, best.confident) == ("2.0", "create_model_field", False)
    assert len(best.merged) == 1
    assert [(v.first, v.function) for v in best.versions] == [
        ("2.0", "create_model_field"),
        ("1.0", "create_response_field"),
    ]
    assert all(m.function != "create_response_field" for m in matches[1:])


def test_the_wording_of_one_release_still_picks_it(renamed: Store) -> None:
    paste = "APIError: Invalid args for response field! Hint: check None"
    best = lookup_text(renamed, paste).matches[0]
    assert (best.version, best.function) == ("1.0", "create_response_field")
    assert best.merged == []
