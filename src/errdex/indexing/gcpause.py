"""Pausing Python's cyclic garbage collector around work that allocates a great deal."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused(*, collect_after: bool = False) -> Iterator[None]:
    """Pause the cyclic collector, restoring its state after (and collecting, if asked).

    Parsing, linking and writing make millions of small objects while much else is alive:
    each collection those allocations trigger walks the whole heap again for almost
    nothing, since the work makes few reference cycles and reference counting frees the
    rest. A quarter of the time of a parse goes there.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        if collect_after:
            # The work's few cycles are all young: collecting the youngest generation frees
            # them without walking every older object of the process (a full collection
            # per batch costs more than it saves).
            gc.collect(0)
