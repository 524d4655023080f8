"""Pausing Python's cyclic garbage collector around work that allocates a great deal."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# The collector is one per process, and a cluster's worker runs a task per thread: pauses
# are counted, the first one in records the collector's state and the last one out restores
# it, so that no thread turns it back on under another one's feet.
_lock = threading.Lock()
_pauses = 0
_was_enabled = False
# Pauses that hold every collection until they end (`hold`): what the work inside makes all
# lives until then.
_holds = 0


@contextmanager
def cyclic_gc_paused(*, collect_after: bool = False, hold: bool = False) -> Iterator[None]:
    """Pause the cyclic collector, restoring its state after (and collecting, if asked).

    With `hold`, no pause collects after itself until this one ends, in any thread (the
    collector and the count of holds are the process's: a batch another thread extracts
    meanwhile waits for the next collection too): work whose objects all
    live until its end (a first answer: the modules it imports, the files it reads and
    parses, the sites it links) gains nothing from a young collection, and with the
    collector off since the pause began, the youngest generation is everything made since,
    which each such collection walks (a tenth of a subset's extraction).

    Parsing, linking and writing make millions of small objects while much else is alive:
    each collection those allocations trigger walks the whole heap again for almost
    nothing, since the work makes few reference cycles and reference counting frees the
    rest. A quarter of the time of a parse goes there.
    """
    global _pauses, _was_enabled, _holds
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
        _holds += hold
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            _holds -= hold
            held = _holds > 0
            if _pauses == 0 and _was_enabled:
                gc.enable()
        if collect_after and not held:
            # The work's few cycles are all young: collecting the youngest generation frees
            # them without walking every older object of the process (a full collection
            # per batch costs more than it saves).
            gc.collect(0)
