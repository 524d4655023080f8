"""A check on a state a public method of the user's object cleared (`self._handle is None`
after `invalidate()`, `not self._running` after `stop()`): the call made before that one,
or on a new object. Nothing where the object may start in that state, where the clearing
method leads to an earlier check's error, or on an object the package keeps to itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from explain_samples import indexed_package, offered, page_with_message

from errdex.store import Store

# a class that starts running and whose `stop()` turns that off
RUNNING = """
        class {name}:
            def __init__(self, sink):
                self._sink = sink
                self._running = True

            def stop(self):
                self._running = False

            def publish(self, event):
                if not self._running:
                    raise RuntimeError("The {what} is not running")
                self._sink.put(event)"""

LINKS = {
    "links/__init__.py": """
        from links.link import Feed, Link, Session
        """,
    "links/link.py": """
        class Link:
            def __init__(self, pool, handle=None, _allow_revalidate=True):
                if handle is None:
                    self._handle = pool.connect()
                else:
                    self._handle = handle
                self.__can_reconnect = _allow_revalidate

            @property
            def closed(self):
                return self._handle is None and not self.__can_reconnect

            def invalidate(self):
                if self.closed:
                    raise RuntimeError("This link is closed")
                self._handle = None

            def close(self):
                self._handle = None
                self.__can_reconnect = False

            def detach(self):
                if self.closed:
                    raise RuntimeError("A closed link cannot be detached")
                handle = self._handle
                if handle is None:
                    raise RuntimeError("Can't detach an invalidated link")
                handle.detach()

            def _handle_error(self, error):
                if error.lost:
                    self.invalidate()


        class Session:
            def __init__(self):
                self._bind = None

            def bind(self, engine):
                self._bind = engine

            def unbind(self):
                self._bind = None

            def execute(self, statement):
                if self._bind is None:
                    raise RuntimeError("This session is bound to nothing")
                return self._bind.run(statement)


        """
    + RUNNING.format(name="Feed", what="feed")
    + """

            def check(self):
                assert self._running, "the feed stopped"
        """,
    "links/deep/__init__.py": '"""Internals."""\n',
    "links/deep/inner/__init__.py": '"""Internals."""\n',
    "links/deep/inner/pool.py": RUNNING.format(name="Pool", what="pool"),
}


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("links"), "links", LINKS)


def test_a_call_after_the_method_that_cleared_the_copied_attribute(links: Store) -> None:
    page = page_with_message(links, "links", "Can't detach an invalidated link")
    first = page.solutions[0]
    # `close()` clears it too, but leaves `closed` true: a call after it meets "A closed
    # link cannot be detached" first, so it is not named
    assert first.text == (
        "Call `detach` on your `Link` object before `invalidate()`: it sets "
        "`self._handle` to `None`, and `detach` refuses an object in that state. `Link` "
        "calls `invalidate()` itself too, in `_handle_error` (line 33). For a call after "
        "it, use a new `Link` object (`links.Link`)."
    )
    assert first.fix is not None
    assert first.fix.before == "link.invalidate()\nlink.detach()"
    assert first.fix.after == "link.detach()\nlink.invalidate()"


def test_a_flag_a_public_method_turns_off(links: Store) -> None:
    page = page_with_message(links, "links", "The feed is not running")
    assert page.solutions[0].text.startswith(
        "Call `publish` on your `Feed` object before `stop()`: it sets `self._running` to "
        "`False`, and `publish` refuses an object in that state."
    )


def test_no_order_where_the_object_may_start_cleared(links: Store) -> None:
    # a `Session` starts unbound: calling `execute` before `unbind()` is not enough
    page = page_with_message(links, "links", "This session is bound to nothing")
    assert not any("before `unbind()`" in s for s in offered(page)), offered(page)


def test_no_order_for_an_assert_or_an_object_the_package_keeps(links: Store) -> None:
    for message in ("the feed stopped", "The pool is not running"):
        page = page_with_message(links, "links", message)
        assert not any("before `stop()`" in s for s in offered(page)), offered(page)


def test_a_call_after_the_method_that_leaves_a_refusing_property_true(links: Store) -> None:
    # `closed` is `self._handle is None and not self.__can_reconnect`: false as the
    # constructor leaves them, true as `close()` does; `invalidate()` clears the handle
    # alone, which leaves `closed` unknown, so it is not named
    page = page_with_message(links, "links", "This link is closed")
    first = page.solutions[0]
    assert first.text.startswith(
        "Call `invalidate` on your `Link` object before `close()`: it leaves `self.closed` "
        "true, and `invalidate` refuses an object in that state."
    ), first.text
    assert first.text.endswith("For a call after it, use a new `Link` object (`links.Link`).")
    assert first.fix is not None
    assert first.fix.before == "link.close()\nlink.invalidate()"


def test_no_order_where_the_property_may_start_true(tmp_path: Path) -> None:
    # the constructor may leave the handle None (a parameter of default None, untested),
    # with no way to reconnect: `closed` may be true before any call
    source = LINKS["links/link.py"].replace(
        """                if handle is None:
                    self._handle = pool.connect()
                else:
                    self._handle = handle
                self.__can_reconnect = _allow_revalidate
""",
        """                self._handle = handle
                self.__can_reconnect = False
""",
    )
    files = {**LINKS, "links/link.py": source}
    for store in indexed_package(tmp_path, "links", files):
        page = page_with_message(store, "links", "This link is closed")
        assert not any("before `close()`" in s for s in offered(page)), offered(page)
