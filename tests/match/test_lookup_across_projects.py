"""One catalog, several projects raising the same text: a paste that cannot tell them apart
gets them in a stated order (the likelier way in first, whichever project was indexed
last) and none of them `confident`; evidence that names one still decides. A class pasted
alone finds the raises without a message, though newer texts of that class all have one.
Indexed into a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.match import lookup_text
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store
from samples import write_package

# A library, and an application that carries a private copy of it (as typer carries click).
LIBRARY = {
    "optlib/__init__.py": "",
    "optlib/base.py": """
        class Handler:
            def handle(self, request):
                raise NotImplementedError
        """,
    "optlib/parser.py": """
        class NoSuchOption(Exception):
            pass

        def match_long_opt(opt, known):
            if opt not in known:
                raise NoSuchOption(f"No such option: {opt}")
            return known[opt]

        def choose(value, choices):
            if value not in choices:
                raise ValueError(f"{value!r} is not one of {', '.join(map(repr, choices))}.")
            return value
        """,
}
APPLICATION = {
    "app/__init__.py": "",
    "app/_optlib/__init__.py": "",
    "app/_optlib/parser.py": LIBRARY["optlib/parser.py"],
    # The application also raises the library's own class, with the same text.
    "app/cli.py": """
        from optlib.parser import NoSuchOption

        def reject(name):
            raise NoSuchOption(f"No such option: {name}")

        def convert(value, names):
            if value not in names:
                raise ValueError(f"'{value}' is not one of {names}.")
            return value
        """,
    # More raises of the class with a message than a lookup reads of a class's raises.
    "app/steps.py": "".join(
        f"def step_{n}():\n    raise NotImplementedError('step {n} is not written yet')\n"
        for n in range(60)
    ),
}


def _catalog(root: Path, order: list[str]) -> Store:
    """Both projects in one store, indexed in `order`."""
    store = open_store(root / "errdex.db")
    cache = FactsCache(root / "facts.sqlite3")
    files = {"optlib": LIBRARY, "app": APPLICATION}
    for project in order:
        tree = write_package(root / project, files[project])
        index_source(open_source(str(tree), project=project, version="1.0"), store, cache=cache)
    return store


@pytest.fixture(scope="module", params=[["optlib", "app"], ["app", "optlib"]])
def store(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Store]:
    db = _catalog(tmp_path_factory.mktemp("catalog"), request.param)
    yield db
    db.close()


def test_a_text_of_two_projects_is_said_to_be_either(store: Store) -> None:
    matches = lookup_text(store, "NoSuchOption: No such option: --verbose").matches
    # Whichever was indexed last: the library before its private copy.
    files = [m.file for m in matches]
    assert files.index("optlib/parser.py") < files.index("app/_optlib/parser.py")
    assert not any(m.confident for m in matches[:3])
    assert "nothing in it tells which project" in matches[0].why[-1]
    assert matches[files.index("optlib/parser.py")].why[-1].startswith("the paste fits app 1.0")


def test_the_class_with_its_module_still_decides(store: Store) -> None:
    first = lookup_text(store, "app._optlib.parser.NoSuchOption: No such option: -x").matches[0]
    assert (first.project, first.file) == ("app", "app/_optlib/parser.py")


def test_a_class_named_with_its_package_prefers_that_package(store: Store) -> None:
    # The application raises the library's class too, on a plainer path; the paste names
    # the library's module, and the library comes first.
    matches = lookup_text(store, "optlib.parser.NoSuchOption: No such option: -x").matches
    assert [m.file for m in matches[:2]] == ["optlib/parser.py", "app/cli.py"]
    assert matches[0].why[-1].endswith("the class is written with its package")


def test_a_frame_still_decides(store: Store) -> None:
    paste = """\
Traceback (most recent call last):
  File "/srv/venv/lib/python3.12/site-packages/app/_optlib/parser.py", line 7, in match_long_opt
    raise NoSuchOption(f"No such option: {opt}")
NoSuchOption: No such option: --verbose"""
    first = lookup_text(store, paste).matches[0]
    assert (first.project, first.confident) == ("app", True)


def test_a_builtin_class_alone_finds_its_raise_without_a_message(store: Store) -> None:
    first = lookup_text(store, "NotImplementedError").matches[0]
    assert (first.file, first.line, first.message) == ("optlib/base.py", 4, None)
    assert "raised without a message" in " ".join(first.why)


def test_a_text_two_projects_explain_nearly_alike_is_not_sure(store: Store) -> None:
    # Not the same template, yet both fit the paste: the first is not claimed.
    matches = lookup_text(store, "ValueError: 'nope' is not one of 'a', 'b'.").matches
    assert {m.function for m in matches[:2]} == {"choose", "convert"}
    assert not matches[0].confident
    assert "explains the paste nearly as well" in matches[0].why[-1]
