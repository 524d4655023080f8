"""Linking's per-item work shared out over processes forked from this one.

The work of a site (or of a file's sites) reads the whole version's state: its namespace,
callers, knobs, tables, built once in this process. Workers forked after it is built hold
it already (the pages are shared until written), so nothing big is sent to them. Each
takes the next block of item numbers from a pipe of block numbers (a lock-free queue:
reads of four bytes from a pipe that holds whole numbers are whole), works the block, and
appends its results, encoded with msgpack, to a file in memory of its own (its spool),
then says where they are on a pipe (a few bytes, written whole). `forked_map` reads them
back in the items' order. A spool, unlike a pipe, never makes a worker wait for this
process to read: this process may be busy elsewhere (building what comes next, feeding
a store's writer) while the workers go on.

Why forking is safe here: the child runs only this module's loop, pure Python under the
GIL (which the fork resets), writing to its own spool and pipe. It takes no lock another
thread of this process may have held at the fork (a progress bar's refresh thread holds
the terminal's): it prints nothing (a failure's traceback is sent back as text), logs
nothing, opens no store, and leaves through `os._exit`, running no exit handler and
flushing no stream.

A part of the work that needs state of its own (built in the worker, not here) can be
given as a `Prelude`: the first worker runs it over every item before it takes a block,
while this process works blocks ahead, and each item comes back merged with the prelude's
result for it. So what only the prelude needs is never built in this process, whose
serial work before the fork it would otherwise lengthen while the other core idles.

An item whose work raises is sent back as a `Failed` (its reason), as the work done in
this process would have caught it; a `MemoryError` is raised here. A worker that dies
(killed, out of memory) is replaced by this process: it does the blocks never received.
Ctrl-C is this process's to handle: the workers ignore it, and are killed when the
iteration ends early (or at once when this process dies: their next word finds its pipe
closed).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import sys
import warnings
import weakref
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from errdex.bugs import debugging, error_line

__all__ = ["Failed", "Prelude", "Results", "can_fork", "cores", "forked_map"]

R = TypeVar("R")
T = TypeVar("T", covariant=True)
_NUMBER = struct.Struct("<i")  # a block's number, in the pipe of those to do
_NOTICE = struct.Struct("<iqq")  # a block's number, where its results begin in the spool, length
_MEMORY = -1  # the block number a worker gives when it ran out of memory
_PRELUDE = -2  # the block number of the prelude's results
_MOST_BLOCKS = 8_000  # block numbers the pipe holds before the workers start (32 KB)
_BLOCKS_PER_WORKER = 8


class Failed(msgspec.Struct, array_like=True):
    """An item whose work raised: the one-line reason, and the traceback when debugging."""

    reason: str
    traceback: str = ""


class _Block(msgspec.Struct, Generic[R], array_like=True):
    results: list[R | None]  # None where the item failed
    failed: dict[int, Failed]  # by position in the block


class _Sparse(msgspec.Struct, Generic[R], array_like=True):
    """A prelude's results: those not None, and its failures, by item number."""

    results: dict[int, R]
    failed: dict[int, Failed]


class Prelude(msgspec.Struct, frozen=True):
    """Work over every item done before the blocks, by one worker (`forked_map`):
    `work(i)` (None for most items, where `merge` is not called), `result_type` its
    results' type for the decoder, and `merge(result, its)` the item's result with the
    prelude's for it."""

    work: Callable[[int], Any]
    result_type: Any
    merge: Callable[[Any, Any], Any]


def can_fork() -> bool:
    """Whether this process may fork workers: a POSIX system but macOS (whose system
    libraries may crash in a child forked without exec), its main thread (which alone
    sets the workers' signals), and not a daemonic process of `multiprocessing` (which
    ends without waiting for children of its own)."""
    import multiprocessing
    import threading

    return (
        hasattr(os, "fork")
        and sys.platform != "darwin"
        and threading.current_thread() is threading.main_thread()
        and not multiprocessing.current_process().daemon
    )


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class Results(Iterator[T], Protocol):
    """Items as they come, and `close` to stop them early (a generator is one)."""

    def close(self) -> None: ...


def forked_map(
    work: Callable[[int], R],
    count: int,
    result_type: Any,
    *,
    workers: int,
    block: int,
    prelude: Prelude | None = None,
) -> Results[R | Failed]:
    """`work(i)` for i in range(count), in that order, done by this process and
    `workers - 1` processes forked at this call (everything `work` reads must exist by
    then), at least `block` items at a time; `result_type` is what `work` returns, for the
    decoder. An exception of `work` other than MemoryError comes as a `Failed`.

    The forked workers begin at once; this one joins them when it asks for the first item,
    with the first block, and works until no block is left, the blocks in order where it
    can (not encoded; the next block in order yielded item by item as each is done).
    Closing the results ends the workers.

    With a `prelude`, the first worker forked runs it before it takes a block, and this
    process works the blocks it takes whole until the prelude's results come (or does
    the prelude itself when no worker is forked or the worker died before it was done);
    each item is then its result merged with the prelude's for it (a `Failed` of either
    is the item's).
    """
    # Blocks of neighbouring items, a few per worker: the sites of one file, or of files
    # side by side, read the same parts of the state, which a worker reads once (its caches
    # are its own); yet enough blocks that a worker left behind holds up little at the end.
    block = max(block, -(-count // (_BLOCKS_PER_WORKER * workers)), -(-count // _MOST_BLOCKS))
    pool = _Workers(work, count, block, -(-count // block), workers - 1, prelude)
    return _Forked(pool, result_type)


class _Forked(Generic[R]):
    """The results of the blocks, in their order, as they are done."""

    def __init__(self, pool: _Workers[R], result_type: Any) -> None:
        decoder: msgspec.msgpack.Decoder[_Block[Any]] = msgspec.msgpack.Decoder(_Block[result_type])
        items = _results(pool, decoder)
        self._items: Generator[R | Failed, None, None] = (
            items if pool.prelude is None else _merged(pool, pool.prelude, items)
        )
        # the workers are reaped even if the results are dropped unread, or at exit
        self._reap = weakref.finalize(self, pool.close)

    def __iter__(self) -> _Forked[R]:
        return self

    def __next__(self) -> R | Failed:
        return next(self._items)

    def close(self) -> None:
        self._items.close()
        self._reap()


def _results(
    pool: _Workers[Any], decoder: msgspec.msgpack.Decoder[_Block[Any]]
) -> Generator[Any, None, None]:
    """Each block's results in order: spooled by a worker, or made here meanwhile (the
    next block in order as each result is made: the caller, a store's writer waiting for
    sites, has the first ones at once rather than after the whole block)."""
    spooled: dict[int, tuple[int, int, int]] = {}  # by a worker: where its results are
    mine: dict[int, Iterable[Any]] = {}  # by this process
    try:
        if pool.prelude is not None:
            _await_prelude(pool, spooled, mine)
        for number in range(pool.blocks):
            while number not in spooled and number not in mine:
                pool.receive(spooled, wait=False)
                if number in spooled:
                    break
                taken = pool.take()
                if taken == number:  # this process is a worker too: the next block
                    mine[taken] = pool.work_block(taken)
                elif taken is not None:  # a later one, kept until its turn
                    mine[taken] = list(pool.work_block(taken))
                elif pool.live:
                    pool.receive(spooled, wait=True)
                else:  # its worker died: this process does the block
                    mine[number] = pool.work_block(number)
            if number in mine:
                yield from mine.pop(number)
                continue
            done = decoder.decode(_read_at(*spooled.pop(number)))
            for position, result in enumerate(done.results):
                yield done.failed[position] if result is None else result
        pool.ended = True
    finally:
        pool.close()


def _await_prelude(
    pool: _Workers[Any], spooled: dict[int, tuple[int, int, int]], mine: dict[int, Iterable[Any]]
) -> None:
    """Work blocks whole, in the order taken, until the prelude's results are here."""
    while True:
        pool.receive(spooled, wait=False)
        if pool.prelude_done is not None:
            return
        if pool.prelude_worker not in pool.live:  # none forked, or it died before it was done
            pool.prelude_done = _sparse(pool.run_prelude())
            return
        taken = pool.take()
        if taken is not None:
            mine[taken] = list(pool.work_block(taken))
        else:
            pool.receive(spooled, wait=True)


def _merged(
    pool: _Workers[Any], prelude: Prelude, items: Generator[Any, None, None]
) -> Generator[Any, None, None]:
    """Each item merged with the prelude's result for it (read by the time the first item
    comes, `_await_prelude`)."""
    try:
        for number, item in enumerate(items):
            done = pool.prelude_done
            assert done is not None
            its = done.results.get(number)
            if isinstance(item, Failed):
                yield item
            elif number in done.failed:
                yield done.failed[number]
            else:
                yield item if its is None else prelude.merge(item, its)
    finally:
        items.close()


def _sparse(results: Iterator[Any]) -> _Sparse[Any]:
    """A prelude's results over every item, the None ones left out."""
    found: dict[int, Any] = {}
    failed: dict[int, Failed] = {}
    for number, result in enumerate(results):
        if isinstance(result, Failed):
            failed[number] = result
        elif result is not None:
            found[number] = result
    return _Sparse(found, failed)


class _Worker:
    """One forked worker: its process, the pipe it gives notice on, its spool."""

    def __init__(self, pid: int, notices: int, spool: int) -> None:
        self.pid, self.notices, self.spool = pid, notices, spool
        self.unread = b""  # the start of a notice not all read yet

    def close(self) -> None:
        os.close(self.notices)
        os.close(self.spool)


class _Workers(Generic[R]):
    """The forked workers, what this process reads of them, and the blocks left to do."""

    def __init__(
        self,
        work: Callable[[int], R],
        count: int,
        block: int,
        blocks: int,
        forks: int,
        prelude: Prelude | None = None,
    ) -> None:
        self._work, self._count, self._block, self.blocks = work, count, block, blocks
        self.prelude = prelude
        self.prelude_done: _Sparse[Any] | None = None  # its results, once here
        self.prelude_worker: _Worker | None = None  # the worker running it
        self._prelude_decoder: msgspec.msgpack.Decoder[_Sparse[Any]] | None = None
        if prelude is not None:
            item_type: Any = prelude.result_type
            self._prelude_decoder = msgspec.msgpack.Decoder(_Sparse[item_type])
        self.ended = False  # every block's results were read: the workers end by themselves
        # The first block is this process's: its results are the first wanted, and it gives
        # them as they are made (a worker, running as soon as it is forked, would take it).
        self._first: int | None = 0 if blocks else None
        # every other block number is written before any worker starts: the pipe then only
        # empties
        self._tasks: int | None
        self._tasks, feed = os.pipe()
        try:
            os.write(feed, b"".join(_NUMBER.pack(n) for n in range(1, blocks)))
        finally:
            os.close(feed)
        self.live: list[_Worker] = []
        self._done: list[_Worker] = []  # ended: their spools are still read
        try:
            for _ in range(min(forks, blocks - 1)):
                reading, writing = os.pipe()
                spool = _spool()
                pid = _fork()
                first = not self.live and prelude is not None
                if pid == 0:  # the child: never returns
                    os.close(reading)
                    others = [fd for w in self.live for fd in (w.notices, w.spool)]
                    before = prelude.work if first and prelude is not None else None
                    _serve(work, count, block, self._tasks, (writing, spool), others, before)
                os.close(writing)
                self.live.append(_Worker(pid, reading, spool))
                if first:
                    self.prelude_worker = self.live[-1]
        except BaseException:
            self.close()
            raise

    def take(self) -> int | None:
        """The number of the next block no one has taken, if any is left."""
        if self._first is not None:
            first, self._first = self._first, None
            return first
        if self._tasks is None:
            return None
        taken = os.read(self._tasks, _NUMBER.size)
        if len(taken) < _NUMBER.size:
            os.close(self._tasks)
            self._tasks = None
            return None
        number: int = _NUMBER.unpack(taken)[0]
        return number

    def run_prelude(self) -> Iterator[Any]:
        """The prelude's results over every item, worked out in this process."""
        assert self.prelude is not None
        return _work_block(self.prelude.work, 0, self._count)

    def work_block(self, number: int) -> Iterator[R | Failed]:
        """The block's results, worked out in this process."""
        start = number * self._block
        return _work_block(self._work, start, min(self._count, start + self._block))

    def receive(self, spooled: dict[int, tuple[int, int, int]], *, wait: bool) -> None:
        """The notices the workers gave (with `wait`, at least one, unless every worker has
        ended): where each block's results are (spool, offset, length), by its number. A
        worker whose pipe ends is done (or dead: its blocks are never received)."""
        if not self.live:
            return
        notices = [w.notices for w in self.live]
        ready, _, _ = select.select(notices, [], [], None if wait else 0)
        for worker in [w for w in self.live if w.notices in ready]:
            data = worker.unread + os.read(worker.notices, 64 * _NOTICE.size)
            if len(data) == len(worker.unread):  # the end of the pipe
                self.live.remove(worker)
                self._done.append(worker)
                continue
            whole = len(data) - len(data) % _NOTICE.size
            worker.unread = data[whole:]
            for number, offset, length in _NOTICE.iter_unpack(data[:whole]):
                if number == _MEMORY:
                    raise MemoryError("a linking worker ran out of memory")
                if number == _PRELUDE and self._prelude_decoder is not None:
                    self.prelude_done = self._prelude_decoder.decode(
                        _read_at(worker.spool, offset, length)
                    )
                    continue
                spooled[number] = (worker.spool, offset, length)

    def close(self) -> None:
        """Reap the workers, which end once no block is left; killed first when the
        results were not all read (the iteration ended early)."""
        if self._tasks is not None:
            os.close(self._tasks)
            self._tasks = None
        workers, self.live, self._done = self.live + self._done, [], []
        for worker in workers if not self.ended else ():
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.pid, signal.SIGKILL)  # one already done is a zombie: a no-op
        for worker in workers:
            worker.close()
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker.pid, 0)


def _spool() -> int:
    """A file in memory (on disk where there is no such thing), unnamed."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("errdex-link", os.MFD_CLOEXEC)
    import tempfile  # here: a first answer, linked in this process, needs none of what it brings

    with tempfile.TemporaryFile() as file:
        return os.dup(file.fileno())


def _read_at(fd: int, offset: int, length: int) -> bytes:
    parts = []
    while length:
        part = os.pread(fd, length, offset)
        if not part:
            raise EOFError("a linking worker's results end early")
        parts.append(part)
        offset += len(part)
        length -= len(part)
    return b"".join(parts)


def _fork() -> int:
    """Fork, the child ignoring Ctrl-C from its first instruction: SIGINT is held back
    across the fork, so that none raises KeyboardInterrupt in the child before it is
    ignored (the child would then run its parent's handlers)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        # Python 3.12 warns of forking a process with threads; this module's child is safe
        # with them (see the module's docstring).
        with warnings.catch_warnings():
            warnings.filterwarnings(
                "ignore", "This process .* is multi-threaded", DeprecationWarning
            )
            pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return pid


def _serve(
    work: Callable[[int], Any],
    count: int,
    block: int,
    tasks: int,
    out: tuple[int, int],
    others: list[int],
    prelude: Callable[[int], Any] | None = None,
) -> None:
    """A worker's life: the `prelude` over every item first, if given; then take block
    numbers until none is left, spool each block's results and give notice of them."""
    notices, spool = out
    code = 1
    try:
        for fd in others:  # the parent's ends of other workers' pipes: theirs to see end
            os.close(fd)
        encoder = msgspec.msgpack.Encoder()
        offset = 0
        if prelude is not None:
            data = memoryview(encoder.encode(_sparse(_work_block(prelude, 0, count))))
            offset = _spooled(spool, data)
            os.write(notices, _NOTICE.pack(_PRELUDE, 0, len(data)))
        while len(taken := os.read(tasks, _NUMBER.size)) == _NUMBER.size:
            (number,) = _NUMBER.unpack(taken)
            start = number * block
            results: list[Any] = []
            failed: dict[int, Failed] = {}
            for item in _work_block(work, start, min(count, start + block)):
                if isinstance(item, Failed):
                    failed[len(results)] = item
                    results.append(None)
                else:
                    results.append(item)
            data = memoryview(encoder.encode(_Block(results, failed)))
            _spooled(spool, data)
            os.write(notices, _NOTICE.pack(number, offset, len(data)))
            offset += len(data)
        code = 0
    except MemoryError:
        with contextlib.suppress(OSError):
            os.write(notices, _NOTICE.pack(_MEMORY, 0, 0))
    finally:
        os._exit(code)


def _spooled(spool: int, data: memoryview) -> int:
    """Write `data` whole to the spool; its length."""
    written = 0
    while written < len(data):
        written += os.write(spool, data[written:])
    return written


def _work_block(work: Callable[[int], R], start: int, end: int) -> Iterator[R | Failed]:
    for index in range(start, end):
        try:
            yield work(index)
        except MemoryError:
            raise
        except Exception as error:
            yield Failed(error_line(error), _traceback(error) if debugging() else "")


def _traceback(error: BaseException) -> str:
    import traceback

    return "".join(traceback.format_exception(error))
