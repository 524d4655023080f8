"""Linking in a thread beside writing: items arrive in order, failures and stops travel."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import pytest

from errdex.indexing.overlap import CHUNK, produced_in_thread


def _producer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "errdex-producer"]


def test_every_item_arrives_in_order() -> None:
    items = list(produced_in_thread(lambda: iter(range(3 * CHUNK + 7))))
    assert items == list(range(3 * CHUNK + 7))
    assert list(produced_in_thread(lambda: iter([]))) == []
    assert not _producer_threads()


def test_the_producers_error_is_raised_in_the_consumer() -> None:
    def failing() -> Iterator[int]:
        yield from range(CHUNK + 1)
        raise LookupError("no such module")

    seen: list[int] = []
    with pytest.raises(LookupError, match="no such module"):
        seen.extend(produced_in_thread(failing))
    assert seen == list(range(CHUNK))  # the first full chunk came through before the error
    assert not _producer_threads()


def test_a_consumer_that_stops_stops_the_producer() -> None:
    produced = 0

    def endless() -> Iterator[int]:
        nonlocal produced
        while True:
            produced += 1
            yield produced

    items = produced_in_thread(endless)
    with pytest.raises(KeyboardInterrupt), contextlib.closing(items):
        for item in items:
            if item == 10:
                raise KeyboardInterrupt
    assert not _producer_threads()
    made = produced
    time.sleep(0.2)
    assert produced == made  # nothing more was made after the consumer left
