"""Answers kept across pages: one memo for the rules whose answer is the same on every page
of a version (or of a catalog), bounded, shared by the web's worker threads.

A version's revision is the hash of its content, so what a rule reads of the version's
files (which files write a field, whether a folder hands a function on by name) is the
same on every page that asks it: `outside_writes` and `validators` keep it by revision. The
catalog's own lists (`page_reads`) are the same until something is written: they are kept
under the store's generation (`scope`), and a new one drops what the old one read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["AcrossPages"]

V = TypeVar("V")


class AcrossPages(Generic[V]):
    """At most `most` answers by key, all dropped when a new key finds it full (or comes
    under another scope): the answers are cheap to make again next to a page's reads, and
    a few keys are asked by almost every page."""

    def __init__(self, most: int) -> None:
        self._lock = threading.Lock()  # pages are built in the web's worker threads
        self._most = most
        self._scope: Hashable = None
        self._answers: dict[Hashable, V] = {}

    def get(self, key: Hashable, scope: Hashable = None) -> V | None:
        """The answer kept for `key` under `scope`, or None."""
        with self._lock:
            if scope != self._scope:
                return None
            return self._answers.get(key)

    def put(self, key: Hashable, answer: V, scope: Hashable = None) -> None:
        with self._lock:
            if scope != self._scope:
                self._scope, self._answers = scope, {}
            elif key not in self._answers and len(self._answers) >= self._most:
                self._answers = {}
            self._answers[key] = answer

    def kept(self, key: Hashable, make: Callable[[], V]) -> V:
        """The answer for `key`, made (outside the lock: two threads may both make it, the
        same answer) and kept when not known."""
        known = self.get(key)
        if known is None:
            known = make()
            self.put(key, known)
        return known
