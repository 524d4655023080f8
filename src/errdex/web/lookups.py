"""Lookups off the event loop, a few at a time, each within a time budget.

A pasted megabyte costs seconds of matching. Run on the event loop it would stall every
other request; run in the shared thread pool, a handful of them would hold every store of
the pool, and a cheap `GET /api/projects` would wait behind them. So lookups run in
threads of their own, at most `running` at once (fewer than the pool has stores), with at
most `waiting` more queued; past that the answer is a 503 with `Retry-After`, and so is a
lookup that outlasts its budget. Python cannot stop a thread: one over its budget runs to
its end, and counts against the bound until then, so the bound stays true.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.exceptions import HTTPException
from starlette.requests import Request

T = TypeVar("T")

RETRY_AFTER = "5"  # seconds: about what a large lookup takes


class LookupGate:
    """Admits lookups: `running` at once in threads, `waiting` queued, `seconds` each."""

    def __init__(self, running: int = 2, waiting: int = 8, seconds: float = 30.0) -> None:
        self.running = max(1, running)
        self.waiting = max(0, waiting)
        self.seconds = seconds
        self._slots = threading.BoundedSemaphore(self.running)
        # Threads for the running and the waiting, apart from the shared pool's.
        self._threads = anyio.CapacityLimiter(self.running + self.waiting)
        self._admitted = 0  # lookups running or queued, until their thread ends
        self._lock = threading.Lock()

    @property
    def admitted(self) -> int:
        with self._lock:
            return self._admitted

    async def run(self, func: Callable[..., T], *args: object) -> T:
        """`func(*args)` in a lookup thread; 503 when the queue is full or time runs out."""
        with self._lock:
            if self._admitted >= self.running + self.waiting:
                raise _busy("the server is busy with other lookups; try again shortly")
            self._admitted += 1

        started = False
        dropped = False  # gave up before its thread began: the count is settled here

        def work() -> T:
            nonlocal started
            with self._lock:
                if dropped:  # nobody waits for it: no work either
                    raise _Dropped
                started = True
            try:
                with self._slots:
                    return func(*args)
            finally:
                with self._lock:
                    self._admitted -= 1

        try:
            with anyio.fail_after(self.seconds):
                return await anyio.to_thread.run_sync(
                    work, abandon_on_cancel=True, limiter=self._threads
                )
        except BaseException as error:  # a timeout, or the client went away
            with self._lock:
                if not started:
                    dropped = True
                    self._admitted -= 1
            if isinstance(error, TimeoutError):
                message = f"the lookup took longer than {self.seconds:g} s; try a shorter paste"
                raise _busy(message) from error
            raise


class _Dropped(Exception):
    """A lookup whose request gave up before its thread began."""


def _busy(message: str) -> HTTPException:
    return HTTPException(503, message, headers={"Retry-After": RETRY_AFTER})


def lookups(request: Request) -> LookupGate:
    """The app's lookup gate."""
    found = request.app.state.lookups
    assert isinstance(found, LookupGate)
    return found
