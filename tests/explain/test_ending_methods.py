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
