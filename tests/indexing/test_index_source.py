"""`index_source`: the worker pool, the facts cache and the stage timings, on a real folder."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from errdex.indexing import IndexReport, index_source, pipeline
from errdex.indexing.cache import FactsCache
from errdex.indexing.gcpause import cyclic_gc_paused
from errdex.indexing.parallel import MIN_PARALLEL_FILES, ExtractionPool
from errdex.sources import open_source
from errdex.store import aside, open_store
from samples import write_package

# Enough modules that the pool is used, each with a site of its own.
MODULES = {
    f"pkg/mod{i}.py": f"""
        def check_{i}(value):
            if value < {i}:
                raise ValueError(f"value {{value}} is below {i}")
            return value
        """
    for i in range(MIN_PARALLEL_FILES + 6)
}


def _index(root: Path, tmp_path: Path, name: str, workers: int) -> tuple[IndexReport, list[str]]:
    store = open_store(str(tmp_path / f"{name}.db"))
    try:
        report = index_source(
            open_source(str(root)),
            store,
            cache=FactsCache(tmp_path / f"{name}-cache" / "facts.sqlite3"),
            workers=workers,
        )
        sites = store.list_sites(project=report.project)
        messages = sorted(s.site.message.text for s in sites if s.site.message)
    finally:
        store.close()
    return report, messages


def test_workers_find_what_one_process_finds(tmp_path: Path) -> None:
    root = write_package(tmp_path / "src", {"pkg/__init__.py": "", **MODULES})
    pooled, pooled_messages = _index(root, tmp_path, "pooled", workers=2)
    alone, alone_messages = _index(root, tmp_path, "alone", workers=1)
    assert pooled_messages == alone_messages
    assert len(pooled_messages) == len(MODULES)
    assert "value {value} is below 7" in pooled_messages
    assert pooled.parsed == alone.parsed == len(MODULES) + 1
    assert set(pooled.timings) == {"read", "extract", "again", "link", "write"}


def test_cached_files_are_not_parsed_again(tmp_path: Path) -> None:
    root = write_package(tmp_path / "src", {"pkg/__init__.py": "", **MODULES})
    cache = FactsCache(tmp_path / "cache" / "facts.sqlite3")
    store = open_store(str(tmp_path / "errdex.db"))
    try:
        first = index_source(open_source(str(root)), store, cache=cache, workers=2)
        (root / "pkg" / "mod3.py").write_text("def f():\n    raise KeyError('changed')\n")
        second = index_source(open_source(str(root)), store, cache=cache, workers=2, force=True)
    finally:
        store.close()
    assert first.parsed == len(MODULES) + 1
    assert (second.parsed, second.cached) == (1, len(MODULES))


def test_a_pool_started_early_serves_a_handful_of_files(tmp_path: Path) -> None:
    items = [("a.py", b"raise ValueError('a')\n"), ("b.py", b"x = 1\n")]
    with ExtractionPool(2) as pool:
        pool.start()
        results = {path: blob for path, blob, *_ in pool.run(items)}
    assert set(results) == {"a.py", "b.py"}


def test_files_fed_while_the_source_is_read_are_extracted_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    items = [(f"m{i}.py", f"raise ValueError('m{i}')\n".encode()) for i in range(40)]
    submitted: list[int] = []
    with ExtractionPool(2) as pool:
        pool.feed(items[:10])  # no workers yet: the files wait for `run`
        pool.start()
        assert list(pool.run([])) == []  # returns once the workers are up
        assert pool._pool is not None
        submit = pool._pool.submit
        monkeypatch.setattr(
            pool._pool, "submit", lambda *a: submitted.append(len(a[1])) or submit(*a)
        )
        pool.feed(items[:10])
        pool.feed(items[:30])  # the first ten are not handed out twice
        ahead = len(submitted)
        results = list(pool.run(items))
    assert sorted(path for path, *_ in results) == sorted(path for path, _ in items)
    assert sum(submitted) == len(items)
    # no more than two batches per worker handed out ahead of `run`
    assert 0 < ahead <= 4


def test_a_source_read_in_chunks_is_fed_to_the_workers_as_it_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chunks of 8 files: the workers, once up, get the files missing so far as they come
    monkeypatch.setattr(pipeline, "_LOOKUP_CHUNK", 8)
    offered: list[int] = []
    feed = ExtractionPool.feed

    def counted(pool: ExtractionPool, items: list[tuple[str, bytes]]) -> None:
        list(pool.run([]))  # the workers up before the next chunk is read
        offered.append(len(items))
        feed(pool, items)

    monkeypatch.setattr(ExtractionPool, "feed", counted)
    root = write_package(tmp_path / "src", {"pkg/__init__.py": "", **MODULES})
    pooled, pooled_messages = _index(root, tmp_path, "pooled", workers=2)
    assert offered == [8, 16, 24]  # each chunk's missing files join those of the last
    alone, alone_messages = _index(root, tmp_path, "alone", workers=1)
    assert pooled_messages == alone_messages and len(pooled_messages) == len(MODULES)
    assert pooled.parsed == alone.parsed == len(MODULES) + 1


def test_a_large_version_s_writer_has_its_files_before_the_version_is_linked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The writer's process packs the files while the linker works on the whole version,
    # before any site is complete: it is started, with the files, before linking begins.
    monkeypatch.setattr(pipeline, "WRITE_ASIDE_FILES", 1)
    events: list[str] = []
    link_sites = pipeline.link_sites
    monkeypatch.setattr(
        pipeline, "link_sites", lambda *a, **k: events.append("link") or link_sites(*a, **k)
    )
    put = aside._Feed.put
    monkeypatch.setattr(aside._Feed, "put", lambda feed, m: events.append("sent") or put(feed, m))
    root = write_package(tmp_path / "src", {"pkg/__init__.py": "", **MODULES})
    written, messages = _index(root, tmp_path, "aside", workers=1)
    assert events[:2] == ["sent", "link"]  # the files, then the link; then the sites
    assert len(events) == 4 and events[2:] == ["sent", "sent"]
    monkeypatch.setattr(pipeline, "WRITE_ASIDE_FILES", 10_000)
    here, here_messages = _index(root, tmp_path, "here", workers=1)
    assert messages == here_messages and len(messages) == len(MODULES)
    assert written.stored.files == here.stored.files == len(MODULES)


def test_a_large_version_s_facts_are_let_go_while_its_writer_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Once the last site is sent, this process only waits for the writer's outcome: the
    # facts and sites are freed then, not after it.
    monkeypatch.setattr(pipeline, "WRITE_ASIDE_FILES", 1)
    linked: list[list[object]] = []
    link_sites = pipeline.link_sites
    monkeypatch.setattr(
        pipeline,
        "link_sites",
        lambda p, files, *a, **k: linked.append(files) or link_sites(p, files, *a, **k),
    )
    held: list[int] = []
    result = aside._result
    monkeypatch.setattr(aside, "_result", lambda c: held.append(len(linked[0])) or result(c))
    root = write_package(tmp_path / "src", {"pkg/__init__.py": "", **MODULES})
    written, messages = _index(root, tmp_path, "aside", workers=1)
    assert held == [0]  # no facts held while the writer finished
    monkeypatch.setattr(pipeline, "WRITE_ASIDE_FILES", 10_000)
    here, here_messages = _index(root, tmp_path, "here", workers=1)
    assert messages == here_messages
    assert (
        (written.sites, written.kinds)
        == (here.sites, here.kinds)
        == (len(MODULES), {"raise": len(MODULES)})
    )


@pytest.mark.parametrize("enabled", [True, False])
def test_the_gc_pause_restores_the_collector(enabled: bool) -> None:
    (gc.enable if enabled else gc.disable)()
    try:
        with cyclic_gc_paused(collect_after=True):
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(RuntimeError), cyclic_gc_paused():
            raise RuntimeError("boom")
        assert gc.isenabled() is enabled
    finally:
        gc.enable()


def test_overlapping_pauses_restore_the_collector_when_the_last_one_ends() -> None:
    # Threads of one process (a cluster's worker) pause and resume out of order.
    gc.enable()
    first, second = cyclic_gc_paused(), cyclic_gc_paused()
    try:
        first.__enter__()
        second.__enter__()
        first.__exit__(None, None, None)
        assert not gc.isenabled()  # the second pause goes on
        second.__exit__(None, None, None)
        assert gc.isenabled()
    finally:
        gc.enable()


def test_the_file_defining_a_sites_exception_is_stored_for_its_page(tmp_path: Path) -> None:
    root = write_package(
        tmp_path / "src",
        {
            "pkg/__init__.py": "",
            "pkg/errors.py": """
                class ConfigError(ValueError):
                    '''The configuration cannot be used.'''
                """,
            "pkg/config.py": """
                from pkg.errors import ConfigError

                def load(path):
                    if not path.endswith(".toml"):
                        raise ConfigError(f"not a TOML file: {path}")
                """,
            "pkg/unrelated.py": "def add(a, b):\n    return a + b\n",
        },
    )
    store = open_store(str(tmp_path / "errdex.db"))
    try:
        report = index_source(
            open_source(str(root)), store, cache=FactsCache(tmp_path / "cache" / "facts.sqlite3")
        )
        (site,) = store.list_sites(project=report.project)
        assert site.exception is not None and site.exception.defined_in == "pkg/errors.py"
        version = (report.project, report.version)
        assert "class ConfigError(ValueError)" in (store.file_text(version, "pkg/errors.py") or "")
        assert store.file_text(version, "pkg/unrelated.py") is None  # nothing quotes it
    finally:
        store.close()


def test_a_lone_surrogate_in_a_literal_is_stored_as_the_source_spells_it(tmp_path: Path) -> None:
    # `"\ud800"` is valid Python but has no UTF-8 form: msgpack and SQLite refuse it as is.
    root = write_package(
        tmp_path / "src",
        {"pkg/text.py": 'def f(x):\n    if x:\n        raise ValueError("bad \\ud800 char")\n'},
    )
    report, messages = _index(root, tmp_path, "surrogate", workers=1)
    assert messages == ["bad \\ud800 char"]
    assert report.skipped == []


def test_a_version_written_aside_is_the_one_written_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_package(tmp_path / "src", {"pkg/__init__.py": "", **MODULES})
    here, here_messages = _index(root, tmp_path, "here", workers=1)
    monkeypatch.setattr(pipeline, "WRITE_ASIDE_FILES", 1)  # every version is large enough
    aside, aside_messages = _index(root, tmp_path, "aside", workers=1)
    assert aside_messages == here_messages and len(aside_messages) == len(MODULES)
    assert aside.stored is not None and here.stored is not None
    assert (aside.stored.sites, aside.stored.files) == (here.stored.sites, here.stored.files)
    assert set(aside.timings) == {"read", "extract", "again", "link", "write"}


def test_a_holding_pause_keeps_the_pauses_inside_it_from_collecting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    collected: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    try:
        with cyclic_gc_paused(hold=True):
            with cyclic_gc_paused(collect_after=True):
                pass
            assert collected == []  # what the held work made all lives on
        with cyclic_gc_paused(collect_after=True):
            pass
        assert collected == [0]  # the hold over, a batch collects after itself again
    finally:
        gc.enable()
