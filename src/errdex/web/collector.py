"""The garbage collector of a serving process: what it loaded kept out of its passes, and
a pass every 20,000 new containers instead of every 700.

A cold page parses the site's code: tens of thousands of syntax nodes, made and freed by
reference counting (a tree holds no cycles). At Python's default threshold each 700 of them
start a pass of the young generation, and every tenth of those an older one: 7% of a page's
time in one measure (the same 200 sample pages built with and without the collector), 4%
of it saved at this threshold. Frozen, the modules, templates and tables loaded before the
first request are not walked by any pass."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 20_000


@contextmanager
def serving_collector() -> Iterator[None]:
    """While serving: the startup's objects frozen, young passes rarer; as before after."""
    young, *older = gc.get_threshold()
    # A process that froze objects itself keeps its own freeze: freezing more here could
    # not be undone apart from it (`unfreeze` releases every frozen object).
    ours = gc.get_freeze_count() == 0
    if ours:
        gc.collect()
        gc.freeze()
    gc.set_threshold(max(young, YOUNG_THRESHOLD), *older)
    try:
        yield
    finally:
        gc.set_threshold(young, *older)
        if ours:
            gc.unfreeze()
