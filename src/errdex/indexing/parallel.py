"""Extract files in worker processes: one task per batch, results as msgpack bytes."""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

import msgspec

from errdex.bugs import INTERNAL, error_line, show_traceback
from errdex.extract import extract_again, extract_first_hidden
from errdex.extract.budget import FileTimeout, time_limit
from errdex.extract.module import module_name
from errdex.extract.skeleton import MIN_SKELETON_BYTES
from errdex.facts import FileFacts
from errdex.indexing.called_names import packed
from errdex.indexing.gcpause import cyclic_gc_paused

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

# Below this many files a process pool costs more than it saves.
MIN_PARALLEL_FILES = 24
_BATCH_BYTES = 1_500_000
# A version of a few megabytes is cut finer, so that no worker is left with most of it (in
# batches of 1.5 MB, pydantic's 1.5 MB went 1.45 MB to one worker, 0.05 MB to the other).
_BATCHES_PER_WORKER = 4
# Batches per worker handed out while the source is still read (`ExtractionPool.feed`).
_FED_AHEAD = 2

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(FileFacts)

File = tuple[str, bytes]  # (path, data)
# (path, data, names of raising helpers to keep, the encoded first facts when `extract_again`
# may take them)
Again = tuple[str, bytes, tuple[str, ...], bytes | None]
_Item = TypeVar("_Item", File, Again)
# (path, encoded facts, whether they may be a second extraction's first: `extract_first_hidden`,
# the names the file calls where its skeleton blanked, when it is large enough for a second
# extraction: `called_names.packed`)
Extracted = tuple[str, bytes, bool, bytes | None]


def encode_facts(facts: FileFacts) -> bytes:
    """A file's facts as msgpack; facts that cannot be stored make an error for the file.

    Two things msgpack cannot hold do occur in real code: a string literal with a lone
    surrogate (a `\\ud800` escape), kept as the source spells it, and an int past 64 bits (numpy's
    constants), kept as its decimal text, which is how a message shows it. Anything else
    that will not encode skips this one file with the reason, never the whole version.
    """
    try:
        return _encoder.encode(facts)
    except (ValueError, OverflowError, TypeError):
        pass  # UnicodeEncodeError is a ValueError
    try:
        return _encoder.encode(_storable(msgspec.to_builtins(facts)))
    except (TypeError, ValueError, OverflowError) as error:
        reason = f"facts cannot be stored ({type(error).__name__}: {error})"
    return _encoder.encode(FileFacts(path=facts.path, module=facts.module, error=reason))


_INT_RANGE = range(-(2**63), 2**64)  # what msgpack (and JSON by msgspec) can hold


def _storable(value: object) -> object:
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, int) and not isinstance(value, bool) and value not in _INT_RANGE:
        return str(value)
    if isinstance(value, dict):
        return {_storable(k): _storable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_storable(item) for item in value]
    return value


def extract_batch(batch: Sequence[File]) -> list[Extracted]:
    """Extract each (path, data) and encode its facts; runs in a worker process."""
    # The walker leaves no cycle of its own (the stdlib's `literal_eval` leaves a few):
    # one young collection per batch frees them.
    with cyclic_gc_paused(collect_after=True):
        out = []
        for path, data in batch:
            facts, first, hidden = _extract_in_time(path, data)
            # only a call where the skeleton blanked may change a second extraction
            called = (
                packed(hidden.encode(errors="replace")) if len(data) >= MIN_SKELETON_BYTES else None
            )
            out.append((path, encode_facts(facts), first, called))
        return out


def _extract_in_time(path: str, data: bytes) -> tuple[FileFacts, bool, str]:
    """`extract_first_hidden` within the per-file time limit; past it, an error for that
    file, and so for an exception of errdex's own (a bug: the rest of the version goes on)."""
    try:
        with time_limit():
            return extract_first_hidden(path, data)
    except FileTimeout as timeout:
        reason = timeout.reason
    except MemoryError:
        raise  # the limits of `extract.budget` keep a file from this; past them, stop
    except Exception as error:
        show_traceback(error)
        reason = f"{INTERNAL} while extracting: {error_line(error)}"
    return FileFacts(path=path, module=module_name(path)[0], error=reason), False, ""


def extract_again_batch(batch: Sequence[Again]) -> list[Extracted]:
    """Extract each file again keeping its names' calls; empty bytes where nothing changes,
    nothing at all where errdex failed (a bug: the first extraction stands, and is not
    cached as final, so that a fixed errdex tries again)."""
    with cyclic_gc_paused(collect_after=True):
        out: list[Extracted] = []
        for path, data, names, first in batch:
            try:
                with time_limit():
                    facts = extract_again(path, data, names, _first(first))
            except FileTimeout:
                facts = None  # the first extraction stands
            except MemoryError:
                raise
            except Exception as error:
                show_traceback(error)
                continue
            out.append((path, b"" if facts is None else encode_facts(facts), False, None))
        return out


def _first(blob: bytes | None) -> Callable[[], FileFacts] | None:
    """The first facts of a file, decoded only when `extract_again` asks for them."""
    if blob is None:
        return None
    return lambda: _decoder.decode(blob)


def _batches(items: Sequence[_Item], workers: int = 1) -> Iterator[list[_Item]]:
    total = sum(len(item[1]) for item in items)
    limit = min(_BATCH_BYTES, total // (workers * _BATCHES_PER_WORKER) + 1)
    batch: list[_Item] = []
    size = 0
    # Big files first, so no worker is left with the largest one at the end.
    for item in sorted(items, key=lambda item: -len(item[1])):
        batch.append(item)
        size += len(item[1])
        if size >= limit or len(batch) >= 64:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


class ExtractionPool:
    """Worker processes for extraction, started as soon as work is known to be coming.

    Starting them (a fork server importing the extractor, then the workers) takes a good
    part of a second, most of it waiting for the fork server's imports: `start` does that
    in a thread of its own, so that this process goes on reading the source meanwhile, and
    `run` then hands out the files, biggest first.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None
        self._starting: threading.Thread | None = None
        self._failed: BaseException | None = None  # what starting the pool raised
        self._fed: list[Future[list[Extracted]]] = []  # `feed`'s batches
        self._fed_paths: set[str] = set()

    def start(self) -> None:
        """Begin starting the workers, without waiting for them."""
        if self.workers <= 1 or self._pool is not None or self._starting is not None:
            return
        self._starting = threading.Thread(
            target=self._start, name="errdex-extraction-pool", daemon=True
        )
        self._starting.start()

    def _start(self) -> None:
        # imported here: start-up of lookup (a small subset is extracted in this process)
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        try:
            context = multiprocessing.get_context("forkserver")
            # the store's writer of a large version (`store.aside`) forks from it too
            context.set_forkserver_preload(
                ["errdex.extract", "errdex.indexing.parallel", "errdex.store.aside"]
            )
            pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
            self._pool = pool
            for _ in range(self.workers):  # a worker process is only made for a task
                pool.submit(_ready)
        except BaseException as error:  # raised in the thread that uses the pool
            self._failed = error

    def _started(self) -> ProcessPoolExecutor | None:
        """The pool, once `start` has finished making it (None when it was never begun)."""
        if self._starting is not None:
            self._starting.join()
            self._starting = None
        if self._failed is not None:
            failed, self._failed = self._failed, None
            raise failed
        return self._pool

    def feed(self, items: Sequence[File]) -> None:
        """Keep the workers busy with `items` (the files known to be missing so far) while
        this process still reads the source, once they are up: the biggest of them first,
        and no more than `_FED_AHEAD` batches per worker waiting. `run` yields their results
        with the rest's, and hands out the rest biggest first: a big file read last and
        handed out at once would leave one worker on it alone at the end."""
        if self._pool is None or (self._starting is not None and self._starting.is_alive()):
            return
        pool = self._started()
        assert pool is not None, "a pool that was made"
        room = _FED_AHEAD * self.workers - sum(not future.done() for future in self._fed)
        if room <= 0:
            return
        left = [item for item in items if item[0] not in self._fed_paths]
        for batch in itertools.islice(_batches(left, self.workers), room):
            self._fed.append(pool.submit(extract_batch, batch))
            self._fed_paths.update(path for path, _ in batch)

    def run(
        self,
        items: Sequence[File],
        progress: Callable[[int], None] | None = None,
    ) -> Iterator[Extracted]:
        """Yield (path, encoded facts, whether they may be a second extraction's first) for
        every item, in parallel when it pays (those handed out by `feed` already are not
        extracted again)."""
        fed, self._fed = self._fed, []
        rest = [i for i in items if i[0] not in self._fed_paths] if self._fed_paths else items
        return self._map(extract_batch, rest, progress, fed)

    def run_again(self, items: Sequence[Again]) -> Iterator[Extracted]:
        """Yield (path, encoded facts, or empty bytes when they do not change, False) for
        every item but those errdex failed on (`extract_again_batch`)."""
        return self._map(extract_again_batch, items, None)

    def _map(
        self,
        task: Callable[[Sequence[_Item]], list[Extracted]],
        items: Sequence[_Item],
        progress: Callable[[int], None] | None,
        fed: Sequence[Future[list[Extracted]]] = (),
    ) -> Iterator[Extracted]:
        if self._pool is None and len(items) >= MIN_PARALLEL_FILES:
            self.start()
        pool = self._started()
        if pool is None:
            assert not fed, "files are fed only to a pool"
            for batch in _batches(items):
                yield from task(batch)
                if progress:
                    progress(len(batch))
            return
        from concurrent.futures import as_completed  # the pool imported it already

        futures = list(fed)
        futures.extend(pool.submit(task, batch) for batch in _batches(items, self.workers))
        for future in as_completed(futures):
            results = future.result()
            yield from results
            if progress:
                progress(len(results))

    def close(self) -> None:
        if self._starting is not None:
            self._starting.join()
            self._starting = None
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> ExtractionPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _ready() -> None:
    """A task that only makes the pool start its worker."""
