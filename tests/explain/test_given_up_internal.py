"""A package with a command of its own (an application) offers no "Pass None" for an
argument of a function it does not hand to users, when the argument only sets the check off
and the check is of other state: passing None skips the check and leaves that state as it
is. A check of the argument's own value keeps its way out, and so does a library's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.store import Store

LAYERS = """
    def check_sinks(module, layer, sinks):
        if sinks is None or getattr(layer, "has_sink", False):
            return
        raise ValueError(f"{module} applies sinks the layer drops")


    def check_salt(salt):
        if salt is not None and not isinstance(salt, str):
            raise ValueError("salt must be a string")
    """

APP = {
    "pyproject.toml": """
        [project]
        name = "app"
        version = "1.0"
        [project.scripts]
        app = "app.cli:main"
        """,
    "app/__init__.py": "",
    "app/cli.py": """
        def main():
            pass
        """,
    "app/models/__init__.py": "",
    "app/models/layers.py": LAYERS,
}

LIB = {
    "lib/__init__.py": "",
    "lib/models/__init__.py": "",
    "lib/models/layers.py": LAYERS,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("app"), "app", APP)


def test_none_for_an_applications_trigger_argument_is_no_way_out(app: Store) -> None:
    page = page_with_message(app, "app", "{module} applies sinks")
    assert checks(page)
    assert offered(page) == []


def test_a_check_of_the_arguments_own_value_keeps_its_way_out(app: Store) -> None:
    page = page_with_message(app, "app", "salt must be")
    assert "Pass None for the argument `salt` of `check_salt`." in offered(page)


def test_a_librarys_argument_keeps_its_way_out(tmp_path: Path) -> None:
    for lib in indexed_package(tmp_path, "lib", LIB):
        page = page_with_message(lib, "lib", "{module} applies sinks")
        assert offered(page) == ["Pass None for the argument `sinks` of `check_sinks`."]
