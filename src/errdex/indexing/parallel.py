"""Extract files in worker processes: one task per batch, results as msgpack bytes."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed

import msgspec

from errdex.extract import extract_file
from errdex.indexing.gcpause import cyclic_gc_paused

# Below this many files a process pool costs more than it saves.
MIN_PARALLEL_FILES = 24
_BATCH_BYTES = 1_500_000

_encoder = msgspec.msgpack.Encoder()


def extract_batch(batch: Sequence[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """Extract each (path, data) and encode its facts; runs in a worker process."""
    # The walker leaves no cycle of its own (the stdlib's `literal_eval` leaves a few):
    # one young collection per batch frees them.
    with cyclic_gc_paused(collect_after=True):
        return [(path, _encoder.encode(extract_file(path, data))) for path, data in batch]


def _batches(items: Sequence[tuple[str, bytes]]) -> Iterator[list[tuple[str, bytes]]]:
    batch: list[tuple[str, bytes]] = []
    size = 0
    # Big files first, so no worker is left with the largest one at the end.
    for path, data in sorted(items, key=lambda item: -len(item[1])):
        batch.append((path, data))
        size += len(data)
        if size >= _BATCH_BYTES or len(batch) >= 64:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


class ExtractionPool:
    """Worker processes for extraction, started as soon as work is known to be coming.

    Starting them (a fork server importing the extractor, then the workers) takes a good
    part of a second; `start` begins that in the background so it overlaps reading the
    source, and `run` then hands out the files, biggest first.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self.workers <= 1 or self._pool is not None:
            return
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["errdex.extract", "errdex.indexing.parallel"])
        self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        for _ in range(self.workers):  # a worker process is only made for a task
            self._pool.submit(_ready)

    def run(
        self,
        items: Sequence[tuple[str, bytes]],
        progress: Callable[[int], None] | None = None,
    ) -> Iterator[tuple[str, bytes]]:
        """Yield (path, encoded facts) for every item, in parallel when it pays."""
        if self._pool is None and len(items) >= MIN_PARALLEL_FILES:
            self.start()
        pool = self._pool
        if pool is None:
            for batch in _batches(items):
                yield from extract_batch(batch)
                if progress:
                    progress(len(batch))
            return
        futures: list[Future[list[tuple[str, bytes]]]] = [
            pool.submit(extract_batch, batch) for batch in _batches(items)
        ]
        for future in as_completed(futures):
            results = future.result()
            yield from results
            if progress:
                progress(len(results))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> ExtractionPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _ready() -> None:
    """A task that only makes the pool start its worker."""
