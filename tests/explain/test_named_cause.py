"""What the message names as a cause in the user's own doing, offered where nothing else is:
not doing it, with the case the message says it is of. A cause said as a thing, or with the
program's values in it, names no act of the user's and gets nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

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


        class Channel:
            def __init__(self, replies):
                self._replies = replies
                self._waited = False

            def __iter__(self):
                if self._waited:
                    raise RuntimeError(
                        "Timed out waiting for the reply, this may be due to passing a closed "
                        "socket."
                    )
                self._waited = True
                yield from self._replies


        class Pages:
            def __init__(self, rows):
                self._rows = rows
                self._read = False

            def __iter__(self):
                if self._read:
                    raise RuntimeError(
                        "The pages were read. For pages, this could be due to calling `read()` "
                        "twice.For rows, this may be due to iterating the rows again."
                    )
                self._read = True
                yield from self._rows


        class Weights:
            def __init__(self, rows):
                self._rows = rows
                self._read = False

            def __iter__(self):
                if self._read:
                    raise ValueError(
                        "Weights differ; this may be caused by rounding errors in the weights."
                    )
                self._read = True
                yield from self._rows
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


def test_a_case_is_one_a_sentence_opens_with(feed: Store) -> None:
    # "waiting for the reply, this may be ...": "for the reply" is no case of the cause
    page = page_with_message(feed, "feed", "Timed out waiting")
    assert [s.text for s in page.solutions] == [
        "Avoid passing a closed socket: the message names it as a cause of this error."
    ]


def test_a_case_opens_a_sentence_after_a_stop_with_no_space(feed: Store) -> None:
    page = page_with_message(feed, "feed", "The pages were read")
    assert [s.text for s in page.solutions] == [
        "For pages, avoid calling `read()` twice: the message names it as a cause of this error.",
        "For rows, avoid iterating the rows again: the message names it as a cause of this error.",
    ]


def test_a_noun_in_ing_is_no_act_to_avoid(feed: Store) -> None:
    # "rounding errors": a thing, though its first word ends in -ing
    page = page_with_message(feed, "feed", "Weights differ")
    assert not any("names it as a cause" in s.text for s in page.solutions)
    assert offered(page) == [] and checks(page)  # nothing else either
