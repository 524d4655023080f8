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
    one process at a time (it releases the GIL while it reads).
    """

    def __init__(self, url: str | None, size: int = 4) -> None:
        self._url = url
        self._idle: queue.SimpleQueue[Store] = queue.SimpleQueue()
        self._slots = threading.BoundedSemaphore(size)
        self._all: list[Store] = []
        self._lock = threading.Lock()
        self._idle.put(self._open())  # fail now, not on the first request

    def _open(self) -> Store:
        store = open_store(self._url)
        with self._lock:
            self._all.append(store)
        return store

    @property
    def location(self) -> str:
        return self._all[0].location

    @contextmanager
    def store(self) -> Iterator[Store]:
        with self._slots:
            try:
                store = self._idle.get_nowait()
            except queue.Empty:
                store = self._open()
            try:
                yield store
            finally:
                self._idle.put(store)

    def close(self) -> None:
        with self._lock:
            stores, self._all = self._all, []
        for store in stores:
            store.close()
