"""What the message names as a cause in the user's own doing, offered where nothing else is:
not doing it, with the case the message says it is of. A cause said as a thing, or with the
program's values in it, names no act of the user's and gets nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "feed/__init__.py": "from feed.streams import Replayed, Stream\n",
    "feed/streams.py": """
        class StreamError(Exception):
            pass


        class Replayed(StreamError):
            def __init__(self):
                message = (
                    "The content has already been streamed. For requests, this could be due "
                    "to passing a generator as request content, and then receiving a "
                    "redirect. For responses, this could be due to attempting to stream the "
                    "response content more than once."
                )
                super().__init__(message)


        class Stream:
            def __init__(self, chunks):
                self._chunks = chunks
                self._consumed = False

            def __iter__(self):
                if self._consumed:
                    raise Replayed()
                self._consumed = True
                yield from self._chunks


        def summary(results):
            if not results:
                raise RuntimeError(
                    "All requests failed. This is likely due to a misconfiguration of the "
                    "benchmark arguments."
                )
            return len(results)
        """,
}


@pytest.fixture(scope="module")
def feed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("feed"), "feed", FILES)


def test_each_act_the_message_names_as_a_cause_is_avoided(feed: Store) -> None:
    page = page_with_message(feed, "feed", "The content has already been streamed")
    assert [s.text for s in page.solutions] == [
        "For requests, avoid passing a generator as request content, and then receiving a "
        "redirect: the message names it as a cause of this error.",
        "For responses, avoid attempting to stream the response content more than once: the "
        "message names it as a cause of this error.",
    ]


def test_a_cause_said_as_a_thing_is_no_act_to_avoid(feed: Store) -> None:
    page = page_with_message(feed, "feed", "All requests failed")
    assert not any("names it as a cause" in s.text for s in page.solutions)
