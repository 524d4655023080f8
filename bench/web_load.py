"""HTTP load on `errdex serve`: requests per second and latency percentiles, over loopback.

    python bench/web_load.py --db PATH [--workers 1 2] [--duration 10] [--connections 16]

Starts `errdex serve` on a free loopback port with each number of worker processes, and
drives two endpoints in turn with wrk (Debian's `wrk`), each request taking the next of a
few hundred addresses made from the database itself:

- `/api/search?q=...`: a real template of the index with its placeholders filled, printed
  the way Python prints an uncaught exception (what a user pastes);
- `/errors/{id}`: the HTML page of a sampled error id (built for every request: no
  response cache; only highlighted snippets are memoised per process).

Without wrk it falls back to a small asyncio client (HTTP/1.1 keep-alive, bounded by the
same duration and by a request cap). Requests ask for gzip, as browsers do. The load
generator runs on the same machine, so it takes CPU from the server: the figures are a
floor. Prints one row per (endpoint, workers).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from errdex.facts import MessageTemplate, Placeholder
from errdex.store import open_store
from errdex.store.base import StoredSite

VALUES = ["meta-llama/Llama-3-8B", "42", "0.95", "cuda:0", "/data/models/x.safetensors", "bf16"]
MAX_PYTHON_REQUESTS = 200_000


def fill(template: MessageTemplate, rng: random.Random) -> str:
    out: list[str] = []
    for part in template.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value = rng.choice(VALUES)
        if isinstance(part, Placeholder) and part.conversion == "r":
            value = repr(value)
        out.append(value)
    return "".join(out)


def addresses(db: str, count: int, seed: int) -> tuple[list[str], list[str]]:
    """(search paths, error page paths) sampled from the database."""
    rng = random.Random(seed)
    with open_store(db) as store:
        sites: list[StoredSite] = []
        for project in store.projects():
            sites.extend(store.list_sites(project=project.name))
    if not sites:
        raise SystemExit(f"{db} holds no sites: index something first")
    usable = [
        s
        for s in sites
        if s.site.message is not None and s.site.message.literal_length >= 12 and s.exception
    ]
    searches = []
    for stored in rng.sample(usable, min(count, len(usable))):
        assert stored.site.message is not None and stored.exception is not None
        paste = f"{stored.exception.name}: {fill(stored.site.message, rng)}"
        searches.append("/api/search?q=" + quote(paste[:2000], safe=""))
    ids = sorted({s.id for s in sites})
    errors = [f"/errors/{i}" for i in rng.sample(ids, min(count, len(ids)))]
    return searches, errors


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(db: str, workers: int) -> Iterator[int]:
    port = free_port()
    command = [sys.executable, "-m", "errdex", "serve", "--db", db, "--port", str(port)]
    child = subprocess.Popen(
        [*command, "--workers", str(workers)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # the request log: one line per request
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/projects", timeout=5):
                    break
            except OSError:
                if child.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("errdex serve did not start") from None
                time.sleep(0.2)
        yield port
    finally:
        child.terminate()
        child.wait(timeout=60)


# wrk ----------------------------------------------------------------------------------------

LUA = """
paths = {%s}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter %% #paths) + 1])
end
"""


def run_wrk(port: int, paths: list[str], seconds: int, connections: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(LUA % ", ".join(f'"{p}"' for p in paths))
    try:
        done = subprocess.run(
            [
                "wrk",
                "--latency",
                "-t",
                "1",
                "-c",
                str(connections),
                "-d",
                f"{seconds}s",
                "--timeout",
                "30s",
                "-H",
                "Accept-Encoding: gzip",
                "-s",
                script.name,
                f"http://127.0.0.1:{port}",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        Path(script.name).unlink()
    out = done.stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    return {
        "rps": rps,
        "p50": _wrk_ms(out, "50%"),
        "p99": _wrk_ms(out, "99%"),
        "requests": total,
        "bad": int(errors.group(1)) if errors else 0,
    }


def _wrk_ms(out: str, label: str) -> float:
    found = re.search(rf"^\s+{re.escape(label)}\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
    assert found, out
    value, unit = float(found.group(1)), found.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


# Fallback: a bounded asyncio client ---------------------------------------------------------


async def _client(
    port: int, paths: list[str], until: float, latencies: list[float], bad: list[int]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    rng = random.Random()
    try:
        while time.perf_counter() < until and len(latencies) < MAX_PYTHON_REQUESTS:
            path = rng.choice(paths)
            started = time.perf_counter()
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))  # type: ignore[union-attr]
            await reader.readexactly(length)
            latencies.append((time.perf_counter() - started) * 1000)
            if not head.startswith(b"HTTP/1.1 2"):
                bad.append(1)
    finally:
        writer.close()


def run_python(port: int, paths: list[str], seconds: int, connections: int) -> dict[str, float]:
    latencies: list[float] = []
    bad: list[int] = []

    async def drive() -> None:
        until = time.perf_counter() + seconds
        await asyncio.gather(
            *(_client(port, paths, until, latencies, bad) for _ in range(connections))
        )

    started = time.perf_counter()
    asyncio.run(drive())
    elapsed = time.perf_counter() - started
    cuts = statistics.quantiles(latencies, n=100)
    return {
        "rps": len(latencies) / elapsed,
        "p50": cuts[49],
        "p99": cuts[98],
        "requests": len(latencies),
        "bad": len(bad),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default=os.environ.get("ERRDEX_DB"), required=False)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--duration", type=int, default=10, help="seconds per run")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--addresses", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not args.db:
        raise SystemExit("give --db PATH (or set ERRDEX_DB) to a database with sites indexed")
    searches, errors = addresses(args.db, args.addresses, args.seed)
    tool = "wrk" if shutil.which("wrk") else "python"
    run = run_wrk if tool == "wrk" else run_python
    with open_store(args.db) as store:
        versions = [
            f"{v.project} {v.label}" for p in store.projects() for v in store.versions(p.name)
        ]
        sites = sum(store.stats(p.name).sites for p in store.projects())
    print(f"database: {', '.join(versions)} ({sites} sites in the newest versions)")
    print(
        f"load: {tool}, {args.connections} connections, {args.duration} s per run, "
        f"{len(searches)} search and {len(errors)} error addresses, gzip; {os.cpu_count()} CPUs"
    )
    columns = ("workers", "req/s", "p50 ms", "p99 ms", "requests", "non-2xx")
    print(f"{'endpoint':<18} " + " ".join(f"{c:>8}" for c in columns))
    for workers in args.workers:
        with serving(args.db, workers) as port:
            for name, paths in (("/api/search?q=", searches), ("/errors/{id}", errors)):
                run(port, paths[:20], 2, args.connections)  # warm up the processes
                figures = run(port, paths, args.duration, args.connections)
                print(
                    f"{name:<18} {workers:>8} {figures['rps']:>8.1f} {figures['p50']:>8.1f} "
                    f"{figures['p99']:>8.1f} {figures['requests']:>8.0f} {figures['bad']:>8.0f}"
                )


if __name__ == "__main__":
    main()
