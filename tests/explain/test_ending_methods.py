"""A reset that an object's ending method calls: that method is the way out, not the bare
reset (`Live.stop`, which calls `Console.clear_live`, not `clear_live()` while the first
`Live` still runs); a reset nothing ends with stays the way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

SHOW = {
    "show/__init__.py": "",
    "show/console.py": """
        from typing import TYPE_CHECKING, Optional

        if TYPE_CHECKING:
            from .live import Live


        class Console:
            def __init__(self):
                self._live: Optional["Live"] = None
                self._pager = None

            def set_live(self, live: "Live") -> None:
                if self._live is not None:
                    raise RuntimeError("Only one live display may be active at once")
                self._live = live

            def clear_live(self) -> None:
                self._live = None

            def set_pager(self, pager) -> None:
                if self._pager is not None:
                    raise RuntimeError("Only one pager may be set at once")
                self._pager = pager

            def clear_pager(self) -> None:
                self._pager = None


        class Stream:
            def __init__(self):
                self._reader = None

            def attach(self, reader) -> None:
                if self._reader is not None:
                    raise RuntimeError("A reader is attached already")
                self._reader = reader

            def detach_reader(self) -> None:
                self._reader = None

            def close(self) -> None:
                self.detach_reader()


        class Board:
            def __init__(self):
                self._session: Optional["Session"] = None

            def open_session(self, session: "Session") -> None:
                if self._session is not None:
                    raise RuntimeError("A session is open already")
                self._session = session

            def clear_session(self) -> None:
                self._session = None


        class Session:
            def __init__(self, board):
                self.board = board

            def __enter__(self):
                self.board.open_session(self)
                return self

            def __exit__(self, *exc):
                self.board.clear_session()


        class Screen:
            def __init__(self):
                self._cursor: Optional["Cursor"] = None

            def show_cursor(self, cursor: "Cursor") -> None:
                if self._cursor is not None:
                    raise RuntimeError("A cursor is shown already")
                self._cursor = cursor

            def clear_cursor(self) -> None:
                self._cursor = None


        class Cursor:
            def __init__(self):
                self._trail = []

            def clear_cursor(self) -> None:
                self._trail = []

            def stop(self) -> None:
                self.clear_cursor()
        """,
    "show/live.py": """
        class Live:
            def __init__(self, console):
                self.console = console

            def start(self, refresh=False):
                if refresh and self.console is None:
                    raise ValueError("no console to refresh")
                self.console.set_live(self)

            def stop(self):
                self.console.clear_live()
        """,
}


@pytest.fixture(scope="module")
def show(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("show"), "show", SHOW)


def test_the_ending_method_not_the_bare_reset(show: Store) -> None:
    page = page_with_message(show, "show", "Only one live display")
    assert page.solutions[0].text.startswith(
        "Call `stop()` on the `Live` that is still running first: ending it calls "
        "`clear_live()`, which sets `self._live` to `None`."
    )
    assert not any(s.text.startswith("Call `clear_live()`") for s in page.solutions)


def test_a_reset_nothing_ends_with_stays(show: Store) -> None:
    page = page_with_message(show, "show", "Only one pager")
    assert page.solutions[0].text.startswith("Call `clear_pager()` on your `Console` first")


def test_the_own_classs_ending_method_is_no_way_out(show: Store) -> None:
    # `close()` ends the very `Stream` the user is about to attach to
    page = page_with_message(show, "show", "A reader is attached already")
    assert page.solutions[0].text.startswith("Call `detach_reader()` on your `Stream` first")
    assert not any("close()" in s.text for s in page.solutions)


def test_a_with_block_that_ends_the_held_object(show: Store) -> None:
    page = page_with_message(show, "show", "A session is open already")
    assert page.solutions[0].text.startswith(
        "End the `with` block of the `Session` first: leaving it calls `clear_session()`"
    )


def test_the_held_classs_own_method_of_the_same_name_is_not_the_reset(show: Store) -> None:
    # `Cursor.stop` calls `self.clear_cursor()`, the cursor's own: the screen's slot stays
    page = page_with_message(show, "show", "A cursor is shown already")
    assert page.solutions[0].text.startswith("Call `clear_cursor()` on your `Screen` first")
    assert not any("stop()" in s.text for s in page.solutions)
