"""Linking in forked workers (`link.forked`), on a real package (the click installed here,
read as files, never imported): the sites one process makes, in its order, with its ids;
a site that fails in a worker, a worker that dies, one out of memory, Ctrl-C half-way and
an iteration ended early leave no process behind; the selections' index built by the first
worker alone (a prelude of its blocks)."""

from __future__ import annotations

import fcntl
import os
import struct
import termios
import textwrap
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import errdex.link as link
from errdex.errors import NotFoundError
from errdex.extract import extract_file
from errdex.facts import FileFacts
from errdex.indexing import index_source, pipeline
from errdex.indexing.cache import FactsCache
from errdex.link.selection import SelectionIndex
from errdex.linked_facts import IndexedSite, SiteContext, with_context
from errdex.sources import open_source
from errdex.sources.base import Skipped
from errdex.store import open_store
from errdex.store.function_parts import split_chunks
from selection_samples import SERVE

Version = tuple[str, list[FileFacts], dict[str, bytes]]
_context = link._Context.context


@pytest.fixture(scope="module")
def click() -> Version:
    source = open_source("installed:click")
    files = {file.path: file.data for file in source.files()}
    return source.info.project, [extract_file(p, d) for p, d in files.items()], files


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every version forks, in blocks of a few sites (so that each process gets some), on
    a machine with cores to spare."""
    monkeypatch.setattr(link, "MIN_FORKED_SITES", 0)
    monkeypatch.setattr(link, "_SITES_BLOCK", 4)
    monkeypatch.setattr(link.forked, "cores", lambda: 8)


def _linked(
    version: Version, workers: int, failed: list[Skipped] | None = None
) -> list[IndexedSite]:
    project, files, texts = version
    return list(link.link_sites(project, files, failed=failed, texts=texts, workers=workers))


def _adding(monkeypatch: pytest.MonkeyPatch, before: Callable[[IndexedSite], None]) -> None:
    """`_Context.context` calls `before(site)` first (in whichever process adds the site)."""

    def context(self: link._Context, indexed: IndexedSite) -> SiteContext:
        before(indexed)
        return _context(self, indexed)

    monkeypatch.setattr(link._Context, "context", context)


def _children() -> set[int]:
    """This process's child processes (zombies too: they are not reaped yet)."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        found.update(int(pid) for pid in (task / "children").read_text().split())
    return found


def _records(tmp_path: Path, processes: int = 0) -> Callable[[IndexedSite], None]:
    """Each site's process id, written to `pids`. With `processes`, each process holds its
    first site until that many processes wrote one (60 s at most, counted once for all): a
    process left free could take every block before another is scheduled at all. Held in
    this process only, a loaded machine let one worker take every block left before the
    other ran (3 processes wanted, 2 seen), and this process waited the whole limit again
    on each of its sites, its workers long ended (defunct, not reaped: a test of minutes)."""
    log = tmp_path / "pids"
    deadline = time.monotonic() + 60  # the monotonic clock is the system's: forks share it
    held: set[int] = set()  # a forked worker's copy is its own

    def record(indexed: IndexedSite) -> None:
        with log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        if os.getpid() in held:
            return
        held.add(os.getpid())
        while len(set(log.read_text().split())) < processes and time.monotonic() < deadline:
            time.sleep(0.01)

    return record


def _second_worker_late(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second worker forked starts once the others have taken every block, or have
    taken none for 0.3 s (30 s at most), as a loaded machine may schedule it."""
    serve = link.forked._serve

    def late(*args: Any) -> None:
        tasks, others = args[3], args[5]  # _serve's: the pipe of block numbers, fds to close
        if len(others) == 2:  # the parent's two ends of the first worker's pipe and spool
            left, since, deadline = -1, time.monotonic(), time.monotonic() + 30
            while time.monotonic() < deadline:
                now = struct.unpack("i", fcntl.ioctl(tasks, termios.FIONREAD, bytes(4)))[0]
                if now == 0 or (now == left and time.monotonic() - since > 0.3):
                    break
                if now != left:
                    left, since = now, time.monotonic()
                time.sleep(0.01)
        serve(*args)

    monkeypatch.setattr(link.forked, "_serve", late)


def test_workers_make_the_sites_of_one_process_in_its_order(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    alone = _linked(click, workers=1)
    _second_worker_late(monkeypatch)
    _adding(monkeypatch, _records(tmp_path, processes=3))
    before = _children()
    forked = _linked(click, workers=3)
    assert forked == alone and len(alone) > 100
    assert [s.id for s in forked] == [s.id for s in alone]
    assert any(s.caller_links for s in forked)  # the context was made, in the workers too
    pids = set((tmp_path / "pids").read_text().split())
    assert len(pids) == 3 and str(os.getpid()) in pids
    assert _children() == before  # each worker ended and was reaped


def test_the_sites_of_one_function_share_its_callers_whichever_process_made_them(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    alone = _linked(click, workers=1)
    _adding(monkeypatch, _records(tmp_path, processes=3))
    forked = _linked(click, workers=3)
    tuples: dict[tuple[str, str], set[int]] = defaultdict(set)
    for site in forked:
        if site.caller_links:
            tuples[(site.module, site.site.function)].add(id(site.caller_links))
    assert all(len(ids) == 1 for ids in tuples.values())
    # so the store keeps each function's callers once, as for the sites of one process
    parts = [sum(len(c.parts) for c in split_chunks(s, 50)) for s in (alone, forked)]
    assert parts[0] == parts[1] > 10


def test_a_site_failing_in_a_worker_comes_without_its_context(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(indexed: IndexedSite) -> None:
        if indexed.id.endswith(("0", "5", "a")):  # some sites of every block, or near
            raise RuntimeError(f"no context for {indexed.site.line}")

    _adding(monkeypatch, fail)
    failed_alone: list[Skipped] = []
    alone = _linked(click, 1, failed_alone)
    failed_forked: list[Skipped] = []
    forked = _linked(click, 3, failed_forked)
    assert forked == alone
    assert failed_forked == failed_alone and failed_alone
    assert "linked in part" in failed_alone[0].reason
    assert "RuntimeError: no context for" in failed_alone[0].reason
    without = [s for s in forked if s.id.endswith(("0", "5", "a"))]
    assert without and not any(s.caller_links or s.knobs for s in without)


def test_the_blocks_of_a_worker_that_dies_are_made_here(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _linked(click, workers=1)
    main = os.getpid()

    def die(indexed: IndexedSite) -> None:
        if os.getpid() != main:
            os._exit(9)  # killed, as by the kernel out of memory: no word sent

    _adding(monkeypatch, die)
    before = _children()
    failed: list[Skipped] = []
    assert _linked(click, 3, failed) == alone
    assert failed == []
    assert _children() == before


def test_a_worker_out_of_memory_raises_here(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    main = os.getpid()

    def exhaust(indexed: IndexedSite) -> None:
        if os.getpid() != main:
            raise MemoryError

    _adding(monkeypatch, exhaust)
    before = _children()
    with pytest.raises(MemoryError):
        _linked(click, 3)
    assert _children() == before


def test_workers_end_with_an_iteration_ended_early(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    project, files, texts = click
    before = _children()
    sites = link.link_sites(project, files, texts=texts, workers=3)
    assert len(_children() - before) == 2  # forked at the call
    first = next(sites)
    sites.close()
    assert first.id == _linked(click, workers=1)[0].id
    assert _children() == before


def test_workers_are_forked_onto_the_cores_left_free(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, files, texts = click
    monkeypatch.setattr(link.forked, "cores", lambda: 4)
    before = _children()
    # four cores, one of them the writer's: this process and two workers
    sites = link.link_sites(project, files, texts=texts, workers=4, beside=1)
    assert len(_children() - before) == 2
    sites.close()
    monkeypatch.setattr(link.forked, "cores", lambda: 1)
    sites = link.link_sites(project, files, texts=texts, workers=4)
    assert _children() == before
    assert next(sites).id == _linked(click, workers=1)[0].id
    sites.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_the_first_results_come_as_they_are_made(workers: int) -> None:
    # a store's writer waits for the first sites: this process makes the first block (a
    # worker forked would take it first), and gives each result before the whole block
    made: list[int] = []  # by this process (a worker has a copy of its own)

    def work(n: int) -> int:
        made.append(n)
        return n

    results = link.forked.forked_map(work, 100, int, workers=workers, block=10)
    assert next(results) == 0
    assert made == [0]
    assert list(results) == list(range(1, 100))
    results.close()


def test_two_cores_link_in_two_processes_beside_the_writer(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # two cores, a version written by another process as it is linked (as a large one is):
    # the writer waits for sites half the time, which a linking worker fills
    monkeypatch.setattr(link.forked, "cores", lambda: 2)
    monkeypatch.setattr(pipeline, "WRITE_ASIDE_FILES", 0)
    _adding(monkeypatch, _records(tmp_path, processes=2))
    store = open_store(str(tmp_path / "errdex.db"))
    cache = FactsCache(tmp_path / "cache" / "facts.sqlite3")
    try:
        report = index_source(open_source("installed:click"), store, cache=cache, workers=2)
    finally:
        store.close()
    assert report.sites > 100
    pids = set((tmp_path / "pids").read_text().split())
    assert len(pids) == 2 and str(os.getpid()) in pids


def test_ctrl_c_while_linking_leaves_no_version_and_no_worker(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # written by another process as it is linked (as a large version is)
    monkeypatch.setattr(pipeline, "WRITE_ASIDE_FILES", 0)
    main = os.getpid()

    def interrupt(indexed: IndexedSite) -> None:
        if os.getpid() == main:
            raise KeyboardInterrupt
        time.sleep(0.05)  # the workers are slow: this process takes blocks of its own

    _adding(monkeypatch, interrupt)
    before = _children()
    store = open_store(str(tmp_path / "errdex.db"))
    cache = FactsCache(tmp_path / "cache" / "facts.sqlite3")
    try:
        with pytest.raises(KeyboardInterrupt):
            index_source(open_source("installed:click"), store, cache=cache, workers=3)
        with pytest.raises(NotFoundError):  # nothing of it was written
            store.versions("click")
    finally:
        store.close()
    # the extraction pool's fork server may stay (it outlives the run): no worker does
    assert not {pid for pid in _children() - before if _is_linking_worker(pid)}


def _is_linking_worker(pid: int) -> bool:
    """A forked linking worker runs this very command (a fork server runs another), or
    is a zombie not reaped (no command)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes() in (_own_cmdline(), b"")
    except OSError:
        return False


def _own_cmdline() -> bytes:
    return Path(f"/proc/{os.getpid()}/cmdline").read_bytes()


def test_a_worker_sends_what_the_context_adds_and_each_function_s_callers_once(
    click: Version, forking: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    alone = _linked(click, workers=1)
    sent: list[SiteContext | link.forked.Failed] = []
    received = link._received

    def tapped(linked: list[IndexedSite], contexts: Any) -> Any:
        def tap() -> Any:
            for context in contexts:
                sent.append(context)
                yield context

        return received(linked, _Closing(tap(), contexts))

    monkeypatch.setattr(link, "_received", tapped)
    _adding(monkeypatch, _records(tmp_path, processes=3))
    forked = _linked(click, workers=3)
    assert forked == alone
    contexts = [c for c in sent if isinstance(c, SiteContext)]
    assert len(contexts) == len(alone)
    # the site itself is not sent back where the context leaves it as it is
    assert sum(c.site is None for c in contexts) > len(contexts) / 2
    # a function's callers are sent with its first site a process makes, not with each
    with_links = sum(bool(s.caller_links) for s in alone)
    sent_links = sum(bool(c.caller_links) for c in contexts)
    functions = len({(s.module, s.site.function) for s in alone if s.caller_links})
    assert functions <= sent_links < with_links


class _Closing:
    """An iterator that closes `inner` too when closed."""

    def __init__(self, items: Any, inner: Any) -> None:
        self._items, self._inner = items, inner

    def __iter__(self) -> _Closing:
        return self

    def __next__(self) -> Any:
        return next(self._items)

    def close(self) -> None:
        self._items.close()
        self._inner.close()


def test_a_context_is_the_fields_linking_adds_to_a_site(click: Version) -> None:
    for site in _linked(click, workers=1):
        bare = IndexedSite(
            id=site.id,
            file=site.file,
            module=site.module,
            site=site.site,
            exception=site.exception,
            shown=site.shown,
            reading=site.reading,
            helper_raise=site.helper_raise,
        )
        assert with_context(bare, link._own_context(site)) == site


def _merged_prelude(made: list[int]) -> link.forked.Prelude:
    """A prelude giving every third item its square (noting each item in `made`, in the
    process that runs it) and failing at 50; merged as the item's result plus that."""

    def work(n: int) -> int | None:
        made.append(n)
        if n == 50:
            raise ValueError("no square of 50")
        return n * n if n % 3 == 0 else None

    return link.forked.Prelude(work, int, lambda result, its: result + its)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_each_item_comes_merged_with_what_the_prelude_gave_it(workers: int) -> None:
    made: list[int] = []  # the prelude's items made by this process (a worker's is a copy)
    results = link.forked.forked_map(
        lambda n: n, 100, int, workers=workers, block=10, prelude=_merged_prelude(made)
    )
    got = list(results)
    results.close()
    assert got[:4] == [0, 1, 2, 3 + 9]
    assert [r for n, r in enumerate(got) if n != 50] == [
        n + n * n if n % 3 == 0 else n for n in range(100) if n != 50
    ]
    assert isinstance(got[50], link.forked.Failed)
    assert "no square of 50" in got[50].reason
    # by the first worker forked, not here; here only when none is
    assert made == ([] if workers > 1 else list(range(100)))


def test_the_prelude_of_a_worker_that_dies_before_it_is_done_is_made_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[int] = []
    main = os.getpid()
    prelude = _merged_prelude(made)

    def dies(n: int) -> int | None:
        if os.getpid() != main:
            os._exit(9)  # killed, as by the kernel out of memory: no word sent
        return prelude.work(n)

    before = _children()
    results = link.forked.forked_map(
        lambda n: n,
        100,
        int,
        workers=2,
        block=10,
        prelude=link.forked.Prelude(dies, int, prelude.merge),
    )
    got = list(results)
    results.close()
    assert got[99] == 99 + 99 * 99 and isinstance(got[50], link.forked.Failed)
    assert made == list(range(100))
    assert _children() == before


def test_the_selections_index_is_built_by_one_worker_and_the_sites_are_the_same(
    forking: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a version with registries: some sites are picked by a setting
    files = [extract_file(p, textwrap.dedent(t).encode()) for p, t in SERVE.items()]
    version: Version = ("serve", files, {})
    alone = _linked(version, workers=1)
    assert any(s.selections for s in alone)
    log = tmp_path / "built"
    build = SelectionIndex.__init__

    def noted(self: SelectionIndex, *args: Any, **kwargs: Any) -> None:
        with log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        build(self, *args, **kwargs)

    monkeypatch.setattr(SelectionIndex, "__init__", noted)
    assert _linked(version, workers=3) == alone
    built = log.read_text().split()
    assert len(built) == 1 and built[0] != str(os.getpid())
