"""Indexing over a real Dask cluster (a `LocalCluster` of two worker processes): every version
lands whole in the shared store, as a local `errdex index` writes it; a version that fails is
reported while the others land; a scheduler that cannot be reached is one line and exit 2."""

from __future__ import annotations

import json
import shutil
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from distributed import LocalCluster

from errdex.cli import main
from errdex.errors import ClusterError
from errdex.indexing.cluster import VersionTask, index_on_cluster, index_version
from errdex.store import Store, open_store
from pg_server import PostgresServer
from samples import write_package

# Small real releases, pinned: two versions of one project (written side by side) and two
# other projects.
RELEASES = ["six==1.16.0", "six==1.17.0", "tomli==2.0.1", "toml==0.10.2"]

DEMO = {
    "demo/net.py": """
        def connect(host, retries):
            if retries < 0:
                raise ValueError(f"retries must be >= 0, got {retries}")
        """
}


@dataclass
class Cluster:
    scheduler: str
    workers: list[str]
    cache: Path  # the workers' ERRDEX_CACHE: their downloads and facts


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two worker processes of one thread each, as errdex advises for its tasks."""
    cache = tmp_path_factory.mktemp("workers") / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ERRDEX_CACHE", str(cache))  # the worker processes take it on
        patch.delenv("ERRDEX_DB", raising=False)
        with LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as local:
            workers = sorted(local.scheduler_info["workers"])
            yield Cluster(local.scheduler_address, workers, cache)


def errdex(*args: str, cache: Path | None = None) -> tuple[int, str, str]:
    env = {"ERRDEX_DB": None, "ERRDEX_CACHE": str(cache) if cache else None}
    result = CliRunner(env=env).invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def listed(db: str, project: str, version: str) -> list[Any]:
    args = ["list", "--project", project, "--version", version, "--json", "--db", db]
    code, out, err = errdex(*args)
    assert code == 0, err
    return list(json.loads(out))


@pytest.mark.network
def test_every_version_lands_as_a_local_index_writes_it(
    cluster: Cluster, pg_server: PostgresServer, tmp_path: Path
) -> None:
    shared, local = pg_server.new_schema(), pg_server.new_schema()

    results = list(index_on_cluster(RELEASES, cluster.scheduler, shared))

    assert sorted(r.source for r in results) == sorted(RELEASES)
    assert [r.error for r in results] == [None] * len(RELEASES)
    assert {r.worker for r in results} == set(cluster.workers)  # both took versions

    # The same releases indexed here, one after another, with a facts cache of their own
    # (the downloads are the workers', not to fetch them again).
    here = tmp_path / "cache"
    shutil.copytree(cluster.cache / "downloads", here / "downloads")
    args = ["index", *RELEASES, "--workers", "1", "--db", local, "--json"]
    code, out, err = errdex(*args, cache=here)
    assert code == 0, err
    expected = {(r["project"], r["version"]): r for r in json.loads(out)}

    for result in results:
        report = result.report
        assert report is not None and report.stored is not None
        key = (report.project, report.version)
        assert report.sites == expected[key]["sites"] > 0
        sites = listed(shared, *key)
        assert len(sites) == report.stored.sites
        assert sites == listed(local, *key)
    with open_store(shared) as store, open_store(local) as alone:
        for project in ("six", "tomli", "toml"):
            assert _versions(store, project) == _versions(alone, project)


def _versions(store: Store, project: str) -> list[tuple[Any, ...]]:
    """What the store holds of each version, less what differs between two runs: the time
    taken, and which of two versions sharing a file wrote it first."""
    return [
        (*(v.label, v.revision, v.source, v.source_kind, v.link_template, v.date), stats)
        for v in store.versions(project)
        for stats in [msgspec.structs.replace(v.stats, seconds=0.0, new_blobs=0)]
    ]


def test_a_failing_version_is_reported_and_the_others_land(
    cluster: Cluster, pg_url: str, tmp_path: Path
) -> None:
    good = write_package(tmp_path / "demo", DEMO)
    corrupt = tmp_path / "broken-1.0-py3-none-any.whl"
    corrupt.write_bytes(b"PK\x03\x04 this is not really a zip file")
    missing = tmp_path / "nowhere"
    specs = [str(corrupt), str(good), str(missing)]
    args = ("index", *specs, "--project", "demo", "--version", "1.0")
    args += ("--scheduler", cluster.scheduler, "--db", pg_url)

    code, out, err = errdex(*args)

    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert any(line.startswith("demo ") and "1 sites" in line for line in lines), err
    assert any(line.startswith(f"failed {corrupt} (on tcp://") for line in lines), err
    assert "not a valid wheel" in err
    assert f"failed {missing}" in err
    assert any(line.startswith("1 of 3 versions indexed on the cluster") for line in lines), err
    assert lines[-1] == "errdex: 2 of 3 versions failed"
    assert "Traceback" not in err

    code, out, err = errdex(*args, "--json")

    assert code == 2
    assert err == "errdex: 2 of 3 versions failed\n"
    records = json.loads(out)
    assert [r["source"] for r in records] == specs  # the command line's order
    assert records[0]["error"] == f"{corrupt}: not a valid wheel (File is not a zip file)"
    assert records[1]["error"] is None
    assert records[1]["report"]["up_to_date"]  # the first run wrote it
    assert records[2]["error"] == f"no such file or directory: {missing}"
    assert [site["message"] for site in listed(pg_url, "demo", "1.0")] == [
        "retries must be >= 0, got {retries}"
    ]


def test_a_sqlite_file_serves_workers_on_its_machine(cluster: Cluster, tmp_path: Path) -> None:
    package = write_package(tmp_path / "demo", DEMO)
    db = tmp_path / "errdex.db"
    specs = [str(package), f"{package}-missing"]

    results = {r.source: r for r in index_on_cluster(specs, cluster.scheduler, str(db))}

    report = results[str(package)].report
    assert report is not None and report.sites == 1
    assert results[f"{package}-missing"].error is not None
    with open_store(str(db)) as store:
        assert [v.label for v in store.versions(report.project)] == [report.version]


def test_a_worker_that_sees_another_sqlite_file_refuses(tmp_path: Path) -> None:
    # A worker on another machine would open a file of its own at the same path.
    package = write_package(tmp_path / "demo", DEMO)
    db = tmp_path / "errdex.db"
    task = VersionTask(source=str(package), db=str(db), sqlite_file="elsewhere/0/1/2")

    result = index_version(task)

    assert result.report is None
    assert result.error is not None
    assert result.error.startswith(f"the SQLite file {db} is not on the machine of worker")
    assert result.error.endswith("give a postgresql:// URL every worker can reach")
    assert not db.exists()


def test_a_bug_of_errdex_in_a_task_is_its_result_in_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault is injected (no real input is known to raise): one function of linking
    across files fails, as a bug would."""
    import errdex.link

    def fail(*args: object) -> None:
        raise ValueError("injected \x1b[31mfault")

    monkeypatch.setattr(errdex.link.CaughtTexts, "add", fail)
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    package = write_package(tmp_path / "demo", DEMO)
    db = tmp_path / "errdex.db"
    task = VersionTask(source=str(package), db=str(db), project="demo", version="1.0")

    result = index_version(task)

    assert result.report is None
    assert result.error is not None
    assert result.error.startswith(
        f"indexing {package} failed with an internal error (ValueError: injected \\x1b[31mfault)"
    )
    assert "this is a bug in errdex" in result.error
    with open_store(str(db)) as store:
        assert list(store.projects()) == []  # rolled back


def test_an_in_memory_database_is_refused() -> None:
    with pytest.raises(ClusterError, match="in-memory database cannot be shared"):
        next(index_on_cluster(["six==1.16.0"], "tcp://127.0.0.1:1", ":memory:"))


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A port that takes connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"


def _closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{probe.getsockname()[1]}"


@pytest.mark.parametrize("kind", ["closed port", "silent server", "no address", "a worker"])
def test_an_unreachable_scheduler_is_one_line_and_exit_2(
    kind: str, cluster: Cluster, silent_server: str, tmp_path: Path
) -> None:
    address = {
        "closed port": _closed_port(),
        "silent server": silent_server,
        "no address": "nonsense",
        "a worker": cluster.workers[0],
    }[kind]
    db = str(tmp_path / "errdex.db")
    started = time.monotonic()

    code, out, err = errdex(
        "index", "six==1.16.0", "--scheduler", address, "--scheduler-timeout", "1", "--db", db
    )

    assert time.monotonic() - started < 6  # bounded by the timeout, never a hang
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    expected = {
        "closed port": f"errdex: cannot reach the Dask scheduler at {address}:",
        "silent server": f"errdex: cannot reach the Dask scheduler at {address}:"
        " no handshake within 1 s",
        "no address": "errdex: not a Dask scheduler address: nonsense",
        "a worker": f"errdex: not a Dask scheduler address: {address}"
        " (a Dask Worker answers there, not a scheduler)",
    }[kind]
    assert err.startswith(expected), err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--installed"], "--installed indexes what this machine has installed"),
        (["--workers", "2"], "--workers counts this machine's extraction processes"),
        (["installed:click"], "installed:click: installed distributions are those of"),
    ],
)
def test_what_a_cluster_cannot_index_is_refused(
    extra: list[str], message: str, tmp_path: Path
) -> None:
    args = ["index", "six==1.16.0", *extra, "--scheduler", _closed_port()]
    code, out, err = errdex(*args, "--db", str(tmp_path / "errdex.db"))
    assert code == 2
    assert out == ""
    assert message in err.replace("\n", " ")
