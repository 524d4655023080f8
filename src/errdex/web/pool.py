"""A few open stores shared by the server's threads: each request borrows one and returns it."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from errdex.store import Store, open_store


class StorePool:
    """Up to `size` stores on one database, opened as needed and kept for reuse.

    A store serialises its own use; more than one lets SQLite answer several requests of
    one process at a time (it releases the GIL while it reads). `close` closes the open
    stores; a later request opens new ones (an app may be started again, as tests do).
    """

    def __init__(self, url: str | None, size: int = 4) -> None:
        self._url = url
        self._idle: queue.SimpleQueue[Store] = queue.SimpleQueue()
        self._slots = threading.BoundedSemaphore(size)
        first = open_store(url)  # fail now, not on the first request
        self.location = first.location
        self._idle.put(first)

    @contextmanager
    def store(self) -> Iterator[Store]:
        with self._slots:
            try:
                store = self._idle.get_nowait()
            except queue.Empty:
                store = open_store(self._url)
            try:
                yield store
            finally:
                self._idle.put(store)

    def close(self) -> None:
        """Close the stores not in use (all of them once requests have finished)."""
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return
