"""Requests built to hurt: a path that forges a log line, a form of many fields, pastes that
would hold the server, lookups past their queue and their time."""

from __future__ import annotations

import contextlib
import http.client
import logging
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import anyio
import httpx
import pytest
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.testclient import TestClient
from test_serve import serving
from web_samples import Catalog

from errdex.web import create_app
from errdex.web.forms import MAX_FIELDS
from errdex.web.lookups import LookupGate


def request(base: str, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    """One request sent as given: the path is not quoted again on the way."""
    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=120)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "text/plain"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_a_path_cannot_forge_a_log_line_or_drive_a_terminal(catalog: Catalog) -> None:
    with serving(catalog) as base:
        status, _ = request(base, "GET", "/%1b%5b2J%1b%5d0;pwned%07%0aINFO:%20forged%0d%c2%9b")
        assert status == 404
    log = next(catalog.root.glob("serve-*.log")).read_text()
    (line,) = [line for line in log.splitlines() if "pwned" in line]
    assert "\\x1b[2J\\x1b]0;pwned\\x07\\nINFO: forged\\r\\x9b 404 " in line
    assert not any(c in log for c in "\x1b\x07\r\x9b")
    assert not any(line.startswith("INFO: forged") for line in log.splitlines())


@pytest.fixture
def quiet_client(app: Starlette, caplog: pytest.LogCaptureFixture) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as opened:
        yield opened
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no traceback


@pytest.mark.parametrize("path", ["/api/search", "/search"])
def test_a_form_of_too_many_fields_is_a_400_not_a_500(quiet_client: TestClient, path: str) -> None:
    fields = "&".join(f"f{i}=1" for i in range(MAX_FIELDS + 1)) + "&q=ValueError"
    response = quiet_client.post(
        path, content=fields, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 400
    assert f"more than {MAX_FIELDS} fields" in response.text
    if path.startswith("/api/"):
        assert response.json()["status"] == 400


def test_a_multipart_form_is_refused_with_what_to_send(quiet_client: TestClient) -> None:
    files = {f"f{i}": (None, "1") for i in range(MAX_FIELDS * 3)}
    response = quiet_client.post("/api/search", files=files)
    assert response.status_code == 415
    assert "field q" in response.json()["error"]


def test_a_form_within_the_limit_is_searched(quiet_client: TestClient) -> None:
    fields = "&".join(f"f{i}=1" for i in range(MAX_FIELDS - 1)) + "&q=count+must+be+positive"
    response = quiet_client.post(
        "/api/search", content=fields, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 200 and response.json()["matches"]


def search_with_the_gate_held(catalog: Catalog, gate: LookupGate) -> httpx.Response:
    """POST a search while another lookup holds `gate`'s only slot; then let it go."""
    app = create_app(catalog.db, lookup_gate=gate)
    release = threading.Event()
    holding = threading.Event()
    answer: list[httpx.Response] = []

    def hold_the_slot() -> None:
        holding.set()
        release.wait()

    async def hold() -> None:
        with contextlib.suppress(HTTPException):  # it may run out of time too
            await gate.run(hold_the_slot)

    async def scenario() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(hold)
            # Until its thread runs: admitted alone may still be dropped on a busy machine.
            while not holding.is_set():
                await anyio.sleep(0.01)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://errdex") as client:
                answer.append(await client.post("/api/search", content=b"count must be positive"))
            release.set()

    try:
        anyio.run(scenario)
    finally:
        app.state.pool.close()
    return answer[0]


def test_a_lookup_past_the_queue_is_a_503_with_retry_after(catalog: Catalog) -> None:
    gate = LookupGate(running=1, waiting=0, seconds=60)
    response = search_with_the_gate_held(catalog, gate)
    assert response.status_code == 503 and "busy" in response.json()["error"]
    assert response.headers["Retry-After"].isdigit()
    assert gate.admitted == 0


def test_a_lookup_past_its_time_is_a_503_and_frees_its_place(catalog: Catalog) -> None:
    gate = LookupGate(running=1, waiting=1, seconds=0.5)
    response = search_with_the_gate_held(catalog, gate)
    assert response.status_code == 503 and "longer than 0.5 s" in response.json()["error"]
    assert response.headers["Retry-After"].isdigit()
    deadline = time.monotonic() + 10
    while gate.admitted and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gate.admitted == 0


def large_paste(n: int) -> bytes:
    """About a megabyte of log lines, each a little different (no cached answer)."""
    line = f"2024-01-01 12:00:{n:02d} ERROR shop.cart: count must be positive, got {n}\n"
    return (line * (1_000_000 // len(line))).encode()


LONG_ENOUGH = 20.0  # seconds: far longer than a GET of the project list takes


async def _set_after(event: threading.Event, seconds: float) -> None:
    await anyio.sleep(seconds)
    event.set()


def test_large_pastes_do_not_hold_a_cheap_request(catalog: Catalog) -> None:
    """While every lookup the gate lets run is running, each holding a store as a large
    paste's does, `GET /api/projects` is still answered (before, lookups ran in the shared
    pool and held every store, and the GET waited for them). The lookups are held open on
    purpose, so that the order does not depend on how fast this machine matches a paste."""
    app = create_app(catalog.db)
    gate = app.state.lookups
    release = threading.Event()
    running = threading.Semaphore(0)

    def a_long_lookup() -> None:
        with app.state.pool.store():
            running.release()
            release.wait()

    answer: list[httpx.Response] = []
    held: list[bool] = []

    async def scenario() -> None:
        async with anyio.create_task_group() as tasks:
            for _ in range(gate.running):
                tasks.start_soon(gate.run, a_long_lookup)
            for _ in range(gate.running):
                await anyio.to_thread.run_sync(running.acquire)
            # A GET stuck behind the lookups waits in a thread no timeout can stop: let the
            # lookups go after a while, and see whether the GET was answered before that.
            tasks.start_soon(_set_after, release, LONG_ENOUGH)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://errdex") as c:
                answer.append(await c.get("/api/projects"))
            held.append(not release.is_set())
            release.set()
            tasks.cancel_scope.cancel()

    try:
        anyio.run(scenario)
    finally:
        release.set()
        app.state.pool.close()
    assert held == [True], "the GET waited for the lookups to end"
    assert answer[0].status_code == 200 and answer[0].json()["projects"]
