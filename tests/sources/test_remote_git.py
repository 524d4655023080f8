"""A repository by its address: only the revision is fetched, from a real git server on loopback.

The tests cannot reach a real host, so a `git daemon` on 127.0.0.1 serves a bare repository
made in a temporary folder; errdex fetches from it exactly as it would from any host.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources import open_source
from errdex.sources.remote_git import parse_remote
from samples import commit, git


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`git://127.0.0.1:PORT/acme/widgets.git`: v1.0 holds `A = 1`, main two commits later."""
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    commit(work, {"pyproject.toml": '[project]\nname = "widgets"\n', "w/a.py": "A = 1\n"}, "one")
    git(work, "tag", "-a", "v1.0", "-m", "release")  # annotated: ls-remote peels it
    commit(work, {"w/a.py": "A = 2\n"}, "two")
    commit(work, {"w/b.py": "raise ValueError('b is gone')\n"}, "three")
    base = tmp_path / "served"
    (base / "acme").mkdir(parents=True)
    git(tmp_path, "clone", "-q", "--bare", str(work), str(base / "acme" / "widgets.git"))

    port = _free_port()
    daemon = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", "--export-all", f"--base-path={base}",
         "--listen=127.0.0.1", f"--port={port}", str(base)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"git://127.0.0.1:{port}/acme/widgets.git"
    try:
        for _ in range(100):  # until the daemon answers (it has no ready signal)
            probe = subprocess.run(["git", "ls-remote", url], capture_output=True, check=False)
            if probe.returncode == 0:
                break
            time.sleep(0.1)
        else:
            pytest.fail("git daemon did not start")
        yield url, work
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))


def _files(source: object) -> dict[str, bytes]:
    return {f.path: f.data for f in source.files()}  # type: ignore[attr-defined]


def _cached_commits() -> int:
    """How many commits the cache's repository holds: a shallow fetch holds one."""
    (repo,) = (Path(os.environ["ERRDEX_CACHE"]) / "repositories").iterdir()
    out = subprocess.run(
        ["git", "rev-list", "--all", "--count"], cwd=repo, capture_output=True, text=True
    )
    return int(out.stdout)


def test_a_tag_is_fetched_alone_named_by_its_address_and_pinned_to_its_commit(
    served: tuple[str, Path],
) -> None:
    url, work = served
    source = open_source(f"{url}@v1.0")
    assert _files(source) == {"w/a.py": b"A = 1\n"}
    assert source.info.project == "acme/widgets"
    assert source.info.version == "v1.0"
    assert source.info.revision == git(work, "rev-parse", "v1.0^{commit}")
    assert source.info.source_kind == "git"
    assert _cached_commits() == 1


def test_a_branch_is_indexed_as_its_commit(served: tuple[str, Path]) -> None:
    url, work = served
    head = git(work, "rev-parse", "main")
    source = open_source(f"{url}@main")
    assert source.info.revision == head
    assert source.info.version == head[:12]
    assert set(_files(source)) == {"w/a.py", "w/b.py"}


def test_no_revision_means_the_default_branch(served: tuple[str, Path]) -> None:
    url, work = served
    assert open_source(url).info.revision == git(work, "rev-parse", "main")


def test_a_commit_by_its_sha_full_or_abbreviated(served: tuple[str, Path]) -> None:
    url, work = served
    second = git(work, "rev-parse", "main~1")
    source = open_source(f"{url}@{second}")
    assert source.info.revision == second
    assert _files(source) == {"w/a.py": b"A = 2\n"}
    assert open_source(f"{url}@{second[:10]}").info.revision == second


def test_an_unknown_revision_or_host_is_a_clear_error(served: tuple[str, Path]) -> None:
    url, _ = served
    with pytest.raises(SourceError, match="no branch, tag or commit 'nope'"):
        open_source(f"{url}@nope")
    with pytest.raises(SourceError, match="cannot reach"):
        open_source(f"git://127.0.0.1:{_free_port()}/acme/none.git@v1")


def test_the_cli_indexes_an_address_and_lists_it(served: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = served
    env = {**os.environ, "ERRDEX_DB": str(tmp_path / "e.db")}
    cli = [sys.executable, "-m", "errdex"]
    done = subprocess.run([*cli, "index", f"{url}@main"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    listed = subprocess.run(
        [*cli, "list", "--project", "acme/widgets", "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert listed.returncode == 0, listed.stderr
    assert "b is gone" in json.dumps(json.loads(listed.stdout))
    bad = subprocess.run([*cli, "index", f"{url}@nope"], env=env, capture_output=True, text=True)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert "no branch, tag or commit" in bad.stderr


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("https://github.com/vllm-project/vllm@v0.28.0",
         ("https://github.com/vllm-project/vllm", "vllm-project/vllm", "v0.28.0")),
        ("https://github.com/o/r.git", ("https://github.com/o/r.git", "o/r", None)),
        ("https://token@gitlab.com/group/sub/r@feature/x",
         ("https://token@gitlab.com/group/sub/r", "group/sub/r", "feature/x")),
        ("git@github.com:o/r.git@abc1234", ("git@github.com:o/r.git", "o/r", "abc1234")),
        ("ssh://git@host.example/o/r@v1", ("ssh://git@host.example/o/r", "o/r", "v1")),
    ],
)  # fmt: skip
def test_addresses_parse_into_url_project_and_revision(
    spec: str, expected: tuple[str, str, str | None]
) -> None:
    assert tuple(parse_remote(spec) or ()) == expected


@pytest.mark.parametrize(
    "spec",
    ["file:///tmp/repo@v1", "ext::sh -c touch% x@v1", "https://github.com/@v1",
     "https://github.com/o/../r@v1", "https://github.com/o/r@-oops", "requests==2.31.0"],
)  # fmt: skip
def test_local_and_command_transports_are_not_addresses(spec: str) -> None:
    assert parse_remote(spec) is None
