"""Writing a version into a SQLite file from another process, while this one still makes
its sites.

The write of a large version (vllm: 22,500 sites, 2,200 files) is a second and a half of
CPU, and the linking that makes the sites two more, each alone on a machine's cores. Here
the sites go, a chunk at a time as the caller's iterable yields them, to a process of
their own that writes them in the usual single transaction (`writing.write_version`): the
two overlap. A thread would not do: SQLite lets go of the GIL for each row it steps, and
taking it back from a thread that computes costs a switch interval every time.

The child opens the file as any `SqliteStore` does. When the caller's iterable fails, or
the caller is interrupted, the child is told (or finds its pipe closed) and rolls back; a
failure of the child's is raised here as a `StoreError`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from typing import Protocol

import msgspec

from errdex.errors import StoreError
from errdex.linked_facts import IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store.base import VersionStats
from errdex.store.contents import PackedFiles
from errdex.store.function_parts import SplitChunk, split_chunks
from errdex.store.writing import CHUNK
from errdex.store.written import WrittenSite

_ENCODER = msgspec.msgpack.Encoder()
# A chunk is a msgpack array of the parts of functions not sent before (`function_parts`:
# number, encoding), one of the sites without them and one of the numbers of their parts,
# each encoded as the store keeps it: the child reads of each site what its rows need
# (`WrittenSite`) and keeps its own bytes, rather than encode it again.
_CHUNK_DECODER = msgspec.msgpack.Decoder(
    tuple[list[tuple[int, msgspec.Raw]], list[msgspec.Raw], list[int | None]]
)
_SITE_DECODER = msgspec.msgpack.Decoder(WrittenSite)
_END = b""  # after the last chunk: commit
_ABORT = b"\x00"  # the caller failed: roll back (not a msgpack list)


class EncodedWriter(Protocol):
    """A store that writes sites given with their encoding (`SqliteStore`)."""

    def write_encoded_version(
        self,
        info: VersionInfo,
        chunks: Iterable[SplitChunk],
        files: PackedFiles,
    ) -> VersionStats: ...

    def close(self) -> None: ...


# What opens the store in the child: a class such as `SqliteStore`, sent by reference
# (the child imports its module), so that this module imports no store of its own.
Opener = Callable[[str], EncodedWriter]


def write_version_aside(
    opener: Opener,
    path: str,
    info: VersionInfo,
    sites: Iterable[IndexedSite],
    files: Mapping[str, bytes],
    meanwhile: Callable[[], None] | None = None,
) -> VersionStats:
    """`opener(path).write_encoded_version(info, sites, files)`, done by a child process fed the
    sites as they come.

    The child is started, and sent the files, before the first site is asked for: while
    the caller makes it (a linker's work on the whole version, before any site is
    complete), the child compresses the files (`PackedFiles.pack_ahead`), work it would
    otherwise do beside the caller once sites come. Once the last site is sent, the child
    has its last chunks to write and the transaction to commit (vllm: a third of a second)
    while this process has nothing to do but wait: `meanwhile` is called then."""
    context = multiprocessing.get_context("forkserver")
    from_parent, to_child = context.Pipe(duplex=False)  # (reading end, writing end)
    from_child, to_parent = context.Pipe(duplex=False)
    child = context.Process(
        target=_write_in_child, args=(opener, path, from_parent, to_parent), daemon=True
    )
    child.start()
    from_parent.close()
    to_parent.close()
    finished = False
    feed = _Feed(to_child)
    try:
        feed.put(ForkingPickler.dumps((info, dict(files))))  # as `Connection.send` does
        for chunk in split_chunks(sites, CHUNK):
            parts = [(number, msgspec.Raw(data)) for number, data in chunk.parts]
            feed.put(_ENCODER.encode((parts, chunk.sites, chunk.numbers)))
        feed.put(_END)
        if meanwhile is not None:
            meanwhile()
        feed.finish()
        outcome = _result(from_child)
        finished = True
    finally:
        if not finished:
            feed.finish(drop=True)
            _abort(to_child)
        to_child.close()
        child.join(timeout=None if finished else 30)
        if child.is_alive():
            child.terminate()
            child.join()
        from_child.close()
    if isinstance(outcome, str):
        raise StoreError(outcome)
    return outcome


class _Feed:
    """Sends the child its messages, in order, from a thread of its own: a pipe holds less
    than a chunk, and the caller would otherwise wait, its next sites unmade, each time
    the child is still writing the last ones (vllm: 0.7 s of the link's 9.5 s under load).
    The thread spends its time in the pipe's write, which lets go of the GIL."""

    def __init__(self, to_child: Connection) -> None:
        self._to_child = to_child
        self._queue: queue.SimpleQueue[bytes | memoryview | None] = queue.SimpleQueue()
        self._dropping = False
        self._thread = threading.Thread(target=self._send, name="errdex-writer-feed", daemon=True)
        self._thread.start()

    def put(self, message: bytes | memoryview) -> None:
        self._queue.put(message)

    def finish(self, *, drop: bool = False) -> None:
        """Wait until every message is sent (with `drop`, what is not sent yet is not)."""
        if drop:
            self._dropping = True
        self._queue.put(None)
        self._thread.join()

    def _send(self) -> None:
        while (message := self._queue.get()) is not None:
            if self._dropping:
                continue
            try:
                self._to_child.send_bytes(message)
            except (BrokenPipeError, ConnectionResetError):
                self._dropping = True  # the child stopped on an error: its outcome says which


def _result(from_child: Connection) -> VersionStats | str:
    try:
        outcome: VersionStats | str = from_child.recv()
    except EOFError:
        return "the process writing the version ended without a word"
    return outcome


def _abort(to_child: Connection) -> None:
    # a child already gone took its transaction with it
    with contextlib.suppress(OSError):
        to_child.send_bytes(_ABORT)


class _Aborted(Exception):
    """The parent's sites failed: the transaction rolls back."""


def _chunks(from_parent: Connection) -> Iterator[SplitChunk]:
    while True:
        try:
            data = from_parent.recv_bytes()
        except EOFError as error:
            raise _Aborted from error
        if data == _END:
            return
        if data == _ABORT:
            raise _Aborted
        parts, sites, numbers = _CHUNK_DECODER.decode(data)
        encoded = [bytes(raw) for raw in sites]
        yield SplitChunk(
            [(number, bytes(raw)) for number, raw in parts],
            [_SITE_DECODER.decode(raw) for raw in encoded],
            numbers,
            encoded,
        )


def _write_in_child(
    opener: Opener, path: str, from_parent: Connection, to_parent: Connection
) -> None:
    outcome: VersionStats | str
    try:
        info, files = from_parent.recv()
        store = opener(path)
        try:
            packed = PackedFiles(files)
            # The transaction begins with the version once sites come (or the word that
            # none will), so that the database is not held while the caller's first site
            # is still a while off: until then, the files are packed.
            packed.pack_ahead(stop=from_parent.poll)
            outcome = store.write_encoded_version(info, _chunks(from_parent), packed)
        finally:
            store.close()
    except _Aborted:
        return
    except Exception as error:  # any failure is the parent's to raise
        outcome = f"writing the version failed: {type(error).__name__}: {error}"
    to_parent.send(outcome)
