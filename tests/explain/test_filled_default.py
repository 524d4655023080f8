"""A default filled in before the check: `x = x or make()` (or `x if x is not None else 7`)
followed by a test of `x is None` cannot fail when the filled-in value is never None (a
literal, a class's instance, a function declared to return a type that is not optional).
No way out is offered; "What it means" says why. A fallback that may be None keeps the
page as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

SHOW = {
    "show/__init__.py": """
        from typing import Optional

        _console = None


        class Console:
            pass


        def get_console() -> "Console":
            global _console
            if _console is None:
                _console = Console()
            return _console


        def find_console() -> Optional[Console]:
            return _console


        def reconfigure(console):
            # a site of its own: the store keeps the files that hold sites
            if console is None:
                raise ValueError("no console")
        """,
    "show/pretty.py": """
        def install(console=None):
            from show import get_console

            console = console or get_console()
            assert console is not None
            return console


        def paint(fore=None):
            fore = fore if fore is not None else 7
            assert fore is not None
            return fore


        def maybe(console=None):
            from show import find_console

            console = console or find_console()
            assert console is not None
            return console
        """,
    # a relative import at the top of the file, the package read from the file's own
    "show/themes.py": """
        from .styles import Style


        def pick(style=None):
            style = style or Style()
            assert style is not None
            return style
        """,
    "show/styles.py": """
        class Style:
            pass


        def check(style):
            if style is None:
                raise ValueError("no style")
        """,
}


@pytest.fixture(scope="module")
def show(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("show"), "show", SHOW)


def test_a_function_declared_to_return_a_value_fills_it_in(show: Store) -> None:
    page = page_in_function(show, "show", "install")
    assert page.solutions == []
    assert page.example_fix is None
    assert (
        "But `console` is never None here: line 5 sets it to `console or get_console()`, and "
        "`get_console` is declared to return `Console`. So this check cannot fail"
        in page.what_it_means
    )


def test_a_literal_fills_it_in(show: Store) -> None:
    page = page_in_function(show, "show", "paint")
    assert page.solutions == []
    assert "`7` is a literal" in page.what_it_means


def test_an_optional_fallback_keeps_the_page(show: Store) -> None:
    page = page_in_function(show, "show", "maybe")
    assert "never None" not in page.what_it_means
    assert page.solutions  # the way out stays


def test_a_class_imported_relatively_fills_it_in(show: Store) -> None:
    page = page_in_function(show, "show", "pick")
    assert page.solutions == []
    assert "calling the class `Style` makes an instance" in page.what_it_means
