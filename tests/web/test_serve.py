"""`errdex serve` for real: a child process on a loopback port, asked over HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from click.testing import CliRunner
from starlette.testclient import TestClient
from test_api import error_id
from uvicorn.importer import import_from_string
from uvicorn.protocols.http.h11_impl import H11Protocol
from web_samples import Catalog, build_catalog

from errdex.cli import main
from errdex.store import open_store
from errdex.web import create_app
from errdex.web.app import log_config
from errdex.web.protocol import IMPORT_NAME, nagle_off
from samples import among, rejected_analysis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@contextmanager
def serving(catalog: Catalog, *options: str) -> Iterator[str]:
    """`errdex serve` on a free port until the block ends; yields its base URL."""
    port = free_port()
    log_path = catalog.root / f"serve-{port}.log"
    with log_path.open("w") as log:
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "errdex",
                "serve",
                "--port",
                str(port),
                "--db",
                catalog.db,
                *options,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if get(base + "/api/projects")[0] == 200:
                        break
                except OSError:
                    pass
                if child.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(log_path.read_text())
                time.sleep(0.1)
            yield base
        finally:
            child.terminate()
            child.wait(timeout=30)
    assert " GET /api/projects 200 " in log_path.read_text()  # the request log


def test_serve_answers_pages_and_json_with_workers(catalog: Catalog) -> None:
    wanted = error_id(catalog, "count must be positive")
    with serving(catalog, "--workers", "2") as base:
        status, body = get(f"{base}/api/errors/{wanted}")
        assert status == 200 and json.loads(body)["id"] == wanted
        status, body = get(f"{base}/errors/{wanted}")
        assert status == 200 and b"<h2>What it means</h2>" in body
        status, body = get(f"{base}/api/errors/ffffffffffffffff")
        assert status == 404 and json.loads(body)["status"] == 404
        # A long traceback pasted into the box arrives in the query string of a GET.
        paste = "  File 'x.py', line 1, in f\n" * 8000 + "ValueError: count must be positive, got 5"
        status, body = get(f"{base}/api/search?" + urlencode({"q": paste}))
        assert status == 200 and json.loads(body)["matches"][0]["values"] == {"count": "5"}


def etag_of(url: str, holding: str | None = None) -> tuple[int, str]:
    """The status and ETag of a GET, sent with `If-None-Match: holding` when given."""
    request = urllib.request.Request(url, headers={"If-None-Match": holding} if holding else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers["ETag"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers["ETag"]


def test_every_worker_tags_as_this_process_does_and_follows_writes(tmp_path: Path) -> None:
    catalog = build_catalog(tmp_path)
    wanted = error_id(catalog, "count must be positive")
    path = f"/api/errors/{wanted}"
    app = create_app(catalog.db)
    with TestClient(app) as client:
        here = client.get(path).headers["etag"]
    app.state.pool.close()
    with serving(catalog, "--workers", "2", "--cache-mb", "8") as base:
        # fresh connections: the workers take them as the kernel hands them out
        assert {etag_of(base + path) for _ in range(8)} == {(200, here)}
        with open_store(catalog.db) as store:  # this process writes
            store.put_analysis(rejected_analysis(wanted, "r" * 40))
        after = {etag_of(base + path) for _ in range(8)}
        assert len(after) == 1
        ((status, tag),) = after
        assert status == 200 and tag != here
        assert etag_of(base + path, tag) == (304, tag)
        assert etag_of(base + path, here) == (200, tag)


def test_a_worker_sets_its_logging_up_without_importing_the_app() -> None:
    """A worker answers its supervisor's health check (uvicorn: within 5 s, else it is killed
    and started again) only once its logging is set up, which imports errdex's formatters.
    The app's import (0.7 s of CPU) comes after, while the worker answers: before it, a
    loaded machine's workers were killed one after another and the server never served."""
    code = (
        "import json, logging.config, sys\n"
        "logging.config.dictConfig(json.loads(sys.argv[1]))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(log_config())],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    modules = json.loads(done.stdout)
    assert "errdex.web.log_format" in modules
    assert among(modules, ("errdex.web.app", "starlette")) == []


def test_serve_fails_in_one_line_on_a_bad_database(tmp_path: Path) -> None:
    folder = str(tmp_path)  # a directory is no SQLite file
    result = CliRunner().invoke(main, ["serve", "--db", folder, "--port", str(free_port())])
    assert result.exit_code == 2
    assert result.stderr.startswith("errdex: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_help_names_its_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--workers", "--cache-mb"):
        assert option in result.stdout


def test_connections_of_a_socket_bound_as_for_workers_get_nagle_off() -> None:
    """asyncio leaves Nagle on for a socket bound without a protocol number, as uvicorn binds
    the one its workers share; `nagle_off` (what every worker's protocol calls) turns it off."""
    found: dict[str, int] = {}

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            found["asyncio"] = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            nagle_off(transport)
            found["errdex"] = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            transport.close()

    async def connect_once() -> None:
        listener = socket.socket(family=socket.AF_INET)  # as uvicorn's Config.bind_socket
        listener.bind(("127.0.0.1", 0))
        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        async with server:
            reader, writer = await asyncio.open_connection(*listener.getsockname()[:2])
            await reader.read()  # until the probe closes the connection
            writer.close()

    asyncio.run(connect_once())
    assert found == {"asyncio": 0, "errdex": 1}
    assert issubclass(import_from_string(IMPORT_NAME), H11Protocol)  # what serve gives uvicorn
