"""Indexing many versions over a Dask distributed cluster: each source is one task, and the
worker that runs it opens the source, extracts, links and writes that version to the shared
store in one transaction (`index_source`), then hands back its report.

`distributed` is imported only when a cluster is used: plain errdex does not need it
(`pip install 'errdex[dask]'`). Every worker needs errdex installed, and reaches the store
and the sources itself: a `postgresql://` URL, packages from the index (each worker downloads
into its own cache), paths on a folder every worker sees at the same place.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import uuid
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import CancelledError, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from errdex.bugs import bug_line, show_traceback
from errdex.errors import ClusterError, ErrdexError, SourceError
from errdex.indexing import IndexReport, index_source
from errdex.indexing.cache import FactsCache
from errdex.sources import INSTALLED_PREFIX, absolute_spec, open_source
from errdex.store import is_postgres_url, open_store, store_target

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "CONNECT_SECONDS",
    "ClusterRun",
    "VersionResult",
    "VersionTask",
    "index_on_cluster",
    "index_version",
    "sqlite_identity",
]

# How long to wait for the scheduler to answer, and for it to have a worker: a wrong
# address is an error in seconds, not a hang.
CONNECT_SECONDS = 10.0

_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


class VersionTask(msgspec.Struct, frozen=True, kw_only=True):
    """What one task indexes and where it writes it."""

    source: str  # a SOURCE spec, its local path made absolute
    db: str  # a postgresql:// URL, or the absolute path of a SQLite file
    project: str | None = None
    version: str | None = None
    force: bool = False
    # A SQLite file as the client sees it (`sqlite_identity`): a worker that sees another
    # file there, or none, refuses rather than write a database nobody will read.
    sqlite_file: str | None = None


class VersionResult(msgspec.Struct, kw_only=True):
    """One source's outcome: its report, or the one-line reason it failed; who ran it."""

    source: str
    report: IndexReport | None = None
    error: str | None = None
    worker: str | None = None  # the address of the worker that ran the task


@dataclasses.dataclass(frozen=True)
class ClusterRun:
    """The versions a run sends to a cluster (a SOURCE spec each) and their results as they
    complete; nothing is sent before `results` is first read, and closing it cancels the
    tasks not started yet."""

    sources: list[str]
    results: Generator[VersionResult, None, None]


def index_version(task: VersionTask) -> VersionResult:
    """Index one version where this runs (a cluster's task); an errdex error, or one of its
    bugs, is returned as the result's `error`, so that it reaches the client as one line,
    never retried."""
    worker = _worker_address()
    try:
        if task.sqlite_file is not None and sqlite_identity(task.db) != task.sqlite_file:
            raise ClusterError(
                f"the SQLite file {task.db} is not on the machine of worker {worker}"
                f" ({socket.gethostname()}): give a postgresql:// URL every worker can reach"
            )
        source = open_source(task.source, project=task.project, version=task.version)
        cache = FactsCache()  # this worker's own, on its machine
        try:
            with open_store(task.db) as store:
                # One extraction per task, in the task's own thread (workers=1: no process
                # pool). The cluster already runs one task per worker thread on every core
                # it was given: a pool per task would start threads × cores processes per
                # machine behind the scheduler's back, fighting the other tasks for cores
                # and memory the scheduler counts as free; and a worker its nanny started
                # (the default) is a daemonic process, which may not have children at all.
                # Extraction holds the GIL, so workers of one thread each use the cores best.
                report = index_source(source, store, cache=cache, workers=1, force=task.force)
        finally:
            cache.close()
    except ErrdexError as error:
        return VersionResult(source=task.source, error=str(error), worker=worker)
    except MemoryError:
        raise
    except Exception as error:  # a bug of errdex: said as such, in a line, never retried
        show_traceback(error)  # on the worker's log, with ERRDEX_DEBUG=1
        failed = bug_line(error, f"indexing {task.source}")
        return VersionResult(source=task.source, error=failed, worker=worker)
    return VersionResult(source=task.source, report=report, worker=worker)


def index_on_cluster(
    sources: Sequence[str],
    scheduler: str,
    db: str | None = None,
    *,
    project: str | None = None,
    version: str | None = None,
    force: bool = False,
    connect_timeout: float = CONNECT_SECONDS,
) -> Generator[VersionResult, None, None]:
    """Index each source as one task on the Dask cluster whose scheduler is at `scheduler`,
    into the store `db` (as `open_store` reads it); yield each result as it completes.

    The store must be one every worker reaches: a `postgresql://` URL, or a SQLite file
    when every worker runs on this machine (SQLite makes concurrent writers take turns; a
    SQLite file on a network folder is not safe to share between machines). A source that
    fails is a result with an `error`; the others go on. Before any task is sent, a store
    that cannot be opened, a scheduler that does not answer within `connect_timeout`
    seconds or has no worker by then, and a SQLite file some worker cannot share raise an
    `ErrdexError`. Closing the generator early cancels the tasks not yet started.
    """
    target = _shared_target(db)
    for spec in sources:
        if spec.strip().startswith(INSTALLED_PREFIX):
            raise SourceError(
                f"{spec}: installed distributions are those of the machine errdex runs on;"
                " index them without a cluster"
            )
    with open_store(target):
        pass  # made and migrated once, here: a bad URL or password fails before any task
    client = _connect(scheduler, connect_timeout)
    try:
        sqlite_file = None if is_postgres_url(target) else _shared_sqlite(client, target)
        tasks = {
            f"errdex-index-{uuid.uuid4().hex}": (
                spec,
                VersionTask(
                    source=absolute_spec(spec),
                    db=target,
                    project=project,
                    version=version,
                    force=force,
                    sqlite_file=sqlite_file,
                ),
            )
            for spec in sources
        }
        yield from _run(client, tasks)
    finally:
        client.close(timeout=connect_timeout)


def sqlite_identity(path: str) -> str | None:
    """Which file `path` is from where this runs (machine, boot, device, inode), or None
    when there is none. Processes on two machines never agree, not even on a network
    folder, where SQLite's locks cannot be trusted."""
    try:
        stat = Path(path).stat()
        boot = _BOOT_ID.read_text().strip() if _BOOT_ID.exists() else ""
    except OSError:
        return None
    return f"{socket.gethostname()}/{boot}/{stat.st_dev}/{stat.st_ino}"


def _shared_target(db: str | None) -> str:
    """The store every worker is to open: a PostgreSQL URL, or an absolute SQLite path."""
    target = store_target(db)
    if is_postgres_url(target):
        return target
    if target == ":memory:":
        raise ClusterError(
            "an in-memory database cannot be shared with a cluster's workers:"
            " give a postgresql:// URL (or a SQLite file, with every worker on this machine)"
        )
    return os.fspath(Path(target).absolute())


def _connect(address: str, timeout: float) -> Client:
    """A client of the scheduler at `address`, with a worker to run tasks, or a
    `ClusterError` once `timeout` seconds have passed."""
    try:
        from distributed import Client
    except ImportError as error:
        raise ClusterError(
            f"indexing on a cluster needs Dask distributed: pip install 'errdex[dask]' ({error})"
        ) from error
    try:
        _shake_hands(address, timeout)
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as error:
        detail = str(error) or f"no handshake within {timeout:g} s"
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {detail}") from error
    except (ValueError, TypeError) as error:  # no address, or not a scheduler's
        raise ClusterError(f"not a Dask scheduler address: {address} ({error})") from error
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError) as error:
        client.close(timeout=timeout)
        raise ClusterError(
            f"the Dask scheduler at {address} has no worker (waited {timeout:g} s)"
        ) from error
    return client


def _shake_hands(address: str, timeout: float) -> None:
    """Connect to `address` as Dask does and ask who answers, within `timeout` seconds in
    all, before a `Client` is made: Dask bounds the connection but not the handshake, so a
    server that takes the connection and never answers would hold a `Client` until it hangs
    up; and a `Client` that fails to start (a worker's address) times out again at exit."""
    # imported here: every `errdex index` loads this module, and only a cluster needs asyncio
    import asyncio

    from distributed.comm.core import connect
    from distributed.security import Security

    async def shake() -> str:
        arguments = Security().get_connection_args("client")
        comm = await connect(address, timeout=timeout, **arguments)
        try:
            await comm.write({"op": "identity", "reply": True})
            answer = await comm.read()
        finally:
            await comm.close()
        return str(answer.get("type")) if isinstance(answer, dict) else type(answer).__name__

    async def bounded() -> str:
        return await asyncio.wait_for(shake(), timeout)

    with ThreadPoolExecutor(1) as thread:  # an event loop of its own, whatever the caller runs
        kind = thread.submit(asyncio.run, bounded()).result()
    if kind != "Scheduler":
        raise ValueError(f"a Dask {kind} answers there, not a scheduler")


def _shared_sqlite(client: Client, path: str) -> str:
    """The identity of the SQLite file at `path`, after checking that every worker now
    connected sees that same file (a worker joining later checks it in its task)."""
    mine = sqlite_identity(path)
    assert mine is not None, "open_store made the file"
    seen = client.run(sqlite_identity, path)
    elsewhere = sorted(address for address, theirs in seen.items() if theirs != mine)
    if elsewhere:
        raise ClusterError(
            f"the SQLite file {path} is on this machine, and {len(elsewhere)} of"
            f" {len(seen)} workers are not ({elsewhere[0]}, ...): give a postgresql:// URL"
            " every worker can reach"
        )
    return mine


def _run(client: Client, tasks: dict[str, tuple[str, VersionTask]]) -> Iterator[VersionResult]:
    """Submit every task (by key: the source as given, the task); yield each result as it
    comes, naming the source as given; a task that raised is a failure."""
    from distributed import as_completed

    futures = [
        client.submit(index_version, task, key=key, pure=False, retries=0)
        for key, (_, task) in tasks.items()
    ]
    for future in as_completed(futures, loop=client.loop):
        given = tasks[str(future.key)][0]
        try:
            result: VersionResult = future.result()
        except CancelledError as error:  # the scheduler was lost, or cancelled it
            why = getattr(error, "msg", None) or getattr(error, "reason", None) or "by Dask"
            result = VersionResult(source=given, error=f"cancelled: {why}")
        except Exception as error:  # a bug, a worker without errdex, a worker that died
            text = " ".join(str(error).split()) or "no message"
            result = VersionResult(source=given, error=f"{type(error).__name__}: {text}")
        yield msgspec.structs.replace(result, source=given)


def _worker_address() -> str | None:
    """The address of the Dask worker running this, or None outside one."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return None
