"""Run a producer of items in a thread while the caller consumes them: linking beside writing.

Linking is Python code; writing spends much of its time inside SQLite and zlib, which let
go of the GIL. Producing the linked sites in a thread while the store writes the ones
already made overlaps the two. The consumer stays in the calling thread, because a SQLite
connection belongs to the thread that opened it and Ctrl-C reaches only the main thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Generator, Iterable
from typing import TypeVar

T = TypeVar("T")

CHUNK = 500  # items handed over at a time: few enough queue operations, early enough start
_DEPTH = 8  # chunks waiting at most, so a slow consumer bounds the memory held
_POLL = 0.1  # seconds between checks that the consumer is still there


class _Done:
    """The producer's last message: finished, or failed with `error`."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error


def produced_in_thread(make: Callable[[], Iterable[T]]) -> Generator[T, None, None]:
    """The items of `make()`, computed in a background thread ahead of their consumption.

    An exception of the producer is raised here, in the consumer. When the consumer closes
    the iterator early (after an exception or Ctrl-C), the producer stops too.
    """
    handoff: queue.Queue[list[T] | _Done] = queue.Queue(maxsize=_DEPTH)
    stop = threading.Event()

    def hand(message: list[T] | _Done) -> bool:
        while not stop.is_set():
            try:
                handoff.put(message, timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            chunk: list[T] = []
            for item in make():
                chunk.append(item)
                if len(chunk) >= CHUNK:
                    if not hand(chunk):
                        return
                    chunk = []
            if chunk and not hand(chunk):
                return
            hand(_Done())
        except BaseException as error:  # handed to the consumer, which raises it
            hand(_Done(error))

    thread = threading.Thread(target=produce, name="errdex-producer", daemon=True)
    thread.start()
    try:
        while True:
            message = handoff.get()
            if isinstance(message, _Done):
                if message.error is not None:
                    raise message.error
                return
            yield from message
    finally:
        stop.set()
        thread.join()
