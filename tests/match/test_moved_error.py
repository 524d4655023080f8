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
