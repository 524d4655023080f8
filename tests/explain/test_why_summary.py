"""The summary of a function that is a check, quoted as the why of its checks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

CHECKS = {
    "chk/__init__.py": "",
    "chk/batch.py": '''
        def check_batch(ids, expected):
            """Fail unless the runner built exactly the requested batch."""
            assert sorted(ids) == sorted(expected), "batch mismatch"


        def as_iter(value):
            """Check if the value is iterable but not a string. Raises a type
            error, or returns an iterator over the value.
            """
            if isinstance(value, str):
                raise TypeError("a string is no list of items")
            return iter(value)


        def validate_args(args):
            """Validate command-line arguments."""
            if args.count < 0:
                raise ValueError("count below zero")


        def raise_for_status(response):
            """Raise the `StatusError` if one occurred."""
            if response.request is None:
                raise RuntimeError("no request set on the response")


        def check_group(port, ranks, world):
            """Reject rank counts that cannot form a group."""
            if port <= 0:
                raise ValueError("port out of range")
            if not 0 < ranks < world:
                raise ValueError("too many trainer ranks")


        def check_trainer(rank, ranks, world, sock):
            """Reject rank counts or meshes that cannot form a group."""
            if not 0 < ranks < world:
                raise ValueError("trainer ranks must leave a worker")
            if not 0 <= rank < ranks:
                raise ValueError("trainer rank out of range")
            if sock is not None:
                if rank != 0:
                    raise ValueError("only rank zero may hold the store")


        class Executor:
            def check_health(self):
                """Checks if the executor is healthy. If not, it should raise an
                exception."""
                raise NotImplementedError("left to executors")


        class Response:
            def set_encoding(self, value):
                """Set the encoding of the text.

                If the `text` attribute has been read, setting the encoding will throw
                a ValueError.
                """
                if hasattr(self, "_text"):
                    raise ValueError("encoding set after the text was read")
                self._encoding = value


        def resolve_bind(mapper, binds):
            """Find the bind.

            When a mapper is given and the binds are present, the bind is looked up first
            on the mapper in use, then on the mapped class in use, then on any base class
            present in the mro of the mapped class, from more specific superclasses to more
            general ones, then on the tables the mapper maps, each in turn, in order. When
            no bind can be found for the mapper in the binds given to the session, at last
            a LookupError is raised to the caller.
            """
            if mapper not in binds:
                raise LookupError("no bind for the mapper")
            return binds[mapper]


        def is_cached(key, cache):
            """Check whether an item is in the cache."""
            if key is None:
                raise KeyError("no key given")
            return key in cache
        ''',
}


@pytest.fixture(scope="module")
def chk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("chk"), "chk", CHECKS)


def quotes(store: Store, message: str) -> list[tuple[str, str]]:
    return [(q.of, q.text) for q in page_with_message(store, "chk", message).why]


def test_the_summary_that_says_what_the_function_checks(chk: Store) -> None:
    assert quotes(chk, "batch mismatch") == [
        ("docstring of `check_batch`", "Fail unless the runner built exactly the requested batch.")
    ]
    assert quotes(chk, "a string is no list") == [
        (
            "docstring of `as_iter`",
            "Check if the value is iterable but not a string. Raises a type error, or returns "
            "an iterator over the value.",
        )
    ]


def test_no_summary_that_names_no_condition_nor_a_predicates(chk: Store) -> None:
    # "Validate command-line arguments." says what is checked, not on what condition; a
    # "Check whether" summary that raises nothing is a predicate's
    assert quotes(chk, "count below zero") == []
    assert quotes(chk, "no key given") == []
    # of a function of several checks, the summary is quoted on the one it shares a word
    # with, not on another's
    assert quotes(chk, "port out of range") == []
    assert quotes(chk, "too many trainer") == [
        ("docstring of `check_group`", "Reject rank counts that cannot form a group.")
    ]
    # a method left to subclasses: its summary says what they do
    assert quotes(chk, "left to executors") == []
    # one that names another exception than this check's is another check's
    assert quotes(chk, "no request set") == []


def test_no_summary_whose_only_shared_word_another_check_tests(chk: Store) -> None:
    # "rank" of the summary is tested by every check of the function: the summary is of the
    # rank counts, not of which rank may hold the store (nor of a rank in range)
    assert quotes(chk, "only rank zero may hold") == []
    assert quotes(chk, "trainer rank out of range") == []


def test_a_paragraph_that_names_the_exception_raised_states_a_failure(chk: Store) -> None:
    # "will throw a ValueError" says when it fails, in no word a reason is told by
    assert quotes(chk, "encoding set after the text") == [
        (
            "docstring of `Response.set_encoding`",
            "If the `text` attribute has been read, setting the encoding will throw a ValueError.",
        )
    ]

    # the quote cut to its length keeps the lookup order, not the sentence naming the
    # exception: it states no failure
    assert quotes(chk, "no bind for the mapper") == []
