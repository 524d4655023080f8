"""Ways out of a check on the state a `with` block puts the user's object in: a second
block on an object entered, used or closed before ("use each object in one block"), and a
result the end of the block stores, read inside it ("call it after the block ends")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

BLOCKS = {
    "blocks/__init__.py": """
        from blocks.client import Capture, Client, Guarded, Pool, Session, Stream
        """,
    "blocks/client.py": """
        import enum


        class State(enum.Enum):
            UNOPENED = 1
            OPENED = 2
            CLOSED = 3


        class BaseClient:
            def __init__(self):
                self._state = State.UNOPENED


        class Client(BaseClient):
            def __init__(self, timeout=None):
                super().__init__()
                self.timeout = timeout

            def send(self, request):
                if self._state == State.CLOSED:
                    raise RuntimeError("Cannot send a request, as the client has been closed.")
                self._state = State.OPENED

            def get(self, url):
                return self.send(url)

            def close(self):
                self._state = State.CLOSED

            def __enter__(self):
                if self._state != State.UNOPENED:
                    raise RuntimeError("Cannot open a client instance more than once.")
                self._state = State.OPENED
                return self

            def __exit__(self, *args):
                self._state = State.CLOSED


        class Pool(BaseClient):
            def send(self, request):
                self._state = State.OPENED

            def get(self, url):
                return self._fetch(url)

            def _fetch(self, url):
                return self.send(url)

            def __enter__(self):
                if self._state != State.UNOPENED:
                    raise RuntimeError("Cannot open a pool more than once.")
                self._state = State.OPENED
                return self


        class Session:
            def __init__(self):
                self._closed = False

            def close(self):
                self._closed = True

            def __enter__(self):
                if self._closed:
                    raise RuntimeError("Cannot enter a closed session.")
                return self


        class Guarded:
            def __init__(self):
                self._state = State.OPENED

            def __enter__(self):
                if self._state != State.UNOPENED:
                    raise RuntimeError("Cannot open it.")
                self._state = State.OPENED
                return self


        class Stream:
            def __init__(self):
                self._state: State = State.UNOPENED

            def __enter__(self):
                if self._state is not State.UNOPENED:
                    raise RuntimeError("Cannot reopen a stream.")
                self._state: State = State.OPENED
                return self


        class Capture:
            def __init__(self, console):
                self._console = console
                self._result = None

            def __enter__(self):
                return self

            def __exit__(self, *args):
                self._result = self._console.end_capture()

            def get(self):
                if self._result is None:
                    raise RuntimeError("Capture result is not available until the block exits.")
                return self._result
        """,
}


@pytest.fixture(scope="module")
def blocks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("blocks"), "blocks", BLOCKS)


def test_a_block_entered_twice_takes_a_new_object(blocks: Store) -> None:
    page = page_in_function(blocks, "blocks", "Client.__enter__")
    first = page.solutions[0]
    # the value the constructor gives it is read from the base class it goes on to
    assert first.text.startswith(
        "Use each `Client` object in one `with` block, entered before any other call on it: "
        "`__enter__` refuses an object whose `self._state` is no longer `State.UNOPENED` (the "
        "value its constructor gives it), and entering the block changes it (line "
    )
    assert (
        "as `send()`, `close()` and the end of a `with` block do (and the methods that call "
        "them). For another block, make a new `blocks.Client`."
    ) in first.text
    assert first.fix is not None
    assert first.fix.before.endswith(
        "client = Client()\nwith client:\n    ...\nwith client:\n    ..."
    )
    assert first.fix.after.endswith(
        "with Client() as client:\n    ...\nwith Client() as client:\n    ..."
    )


def test_a_method_reaching_a_setter_through_a_private_one_is_said(blocks: Store) -> None:
    # `get()` -> `self._fetch()` -> `self.send()`, which moves the state on
    page = page_in_function(blocks, "blocks", "Pool.__enter__")
    assert "as `send()` does (and the methods that call them)." in page.solutions[0].text


def test_a_state_assigned_with_an_annotation_is_read_as_well(blocks: Store) -> None:
    page = page_in_function(blocks, "blocks", "Stream.__enter__")
    assert page.solutions[0].text.startswith("Use each `Stream` object in one `with` block")


def test_no_block_of_its_own_when_entering_does_not_use_the_object(blocks: Store) -> None:
    # `close()` sets it, entering does not: an order of calls, not one block per object
    page = page_in_function(blocks, "blocks", "Session.__enter__")
    assert not any(s.text.startswith("Use each") for s in page.solutions)
    # the constructor already gives a refused value: no object passes, no way out by order
    page = page_in_function(blocks, "blocks", "Guarded.__enter__")
    assert not any(s.text.startswith("Use each") for s in page.solutions)


def test_a_result_the_end_of_the_block_stores_is_read_after_it(blocks: Store) -> None:
    page = page_in_function(blocks, "blocks", "Capture.get")
    first = page.solutions[0]
    assert first.text == (
        "Call `get` on your `Capture` object after its `with` block ends: leaving the block "
        "sets `self._result`, and `get` refuses an object before that."
    )
    assert first.fix is not None
    assert first.fix.before == "with capture:\n    ...\n    capture.get()"
    assert first.fix.after == "with capture:\n    ...\ncapture.get()"
