"""A method that puts its own object in the state it refuses (a stream marked consumed by
its first read) is called once on each object; a method that keeps what it read, with a
property that gives it back, is the way to use it again. Not when the constructor or
another method puts the object in that state."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.store import Store

FILES = {
    "streams/__init__.py": """
        from streams.body import Body, Counter, Once
        """,
    "streams/body.py": """
        class Body:
            def __init__(self, stream):
                self.stream = stream
                self.consumed = False

            @property
            def content(self):
                if not hasattr(self, "_content"):
                    raise RuntimeError("Body not read.")
                return self._content

            def read(self):
                self._content = b"".join(self.iter_bytes())
                return self._content

            def iter_bytes(self):
                for part in self.iter_raw():
                    yield part

            def iter_raw(self):
                if self.consumed:
                    raise RuntimeError("The body has already been streamed.")
                self.consumed = True
                yield from self.stream

            async def aiter_raw(self):
                if self.consumed:
                    raise RuntimeError("The body has already been streamed (async).")
                self.consumed = True
                for part in self.stream:
                    yield part


        class Once:
            def __init__(self):
                self._used = False

            def run(self, job):
                if self._used:
                    raise RuntimeError("Already used.")
                self._used = True
                return job


        class Counter:
            def __init__(self):
                self.opened = True

            def reopen(self):
                if self.opened:
                    raise RuntimeError("Still open.")
                self.opened = True
        """,
}


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("streams"), "streams", FILES)


def test_a_stream_its_first_read_marks_is_read_once(streams: Store) -> None:
    page = page_with_message(streams, "streams", "The body has already been streamed.")
    first = page.solutions[0].text
    assert first.startswith(
        "Call `iter_raw` at most once on each `Body` object, counting the calls of "
        "`iter_bytes()`, which go through it: the first sets `self.consumed` to `True` (line "
    )
    # `read` keeps what it read, and `content` gives it back
    assert first.endswith(
        "To use its result more than once, call `body.read()` first and read "
        "`body.content` as often as needed."
    )


def test_a_method_that_keeps_nothing_is_called_on_a_new_object(streams: Store) -> None:
    page = page_in_function(streams, "streams", "Once.run")
    assert page.solutions[0].text.startswith("Call `run` at most once on each `Once` object: ")
    assert page.solutions[0].text.endswith("For another pass, make a new `streams.Once`.")


def test_a_state_the_constructor_sets_is_no_single_use(streams: Store) -> None:
    page = page_in_function(streams, "streams", "Counter.reopen")
    assert not any("at most once" in s.text for s in page.solutions)
