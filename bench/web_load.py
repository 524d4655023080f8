"""HTTP load on `errdex serve`: requests per second and latency percentiles, over loopback.

    python bench/web_load.py --db PATH [--workers 1 2] [--duration 10] [--connections 16]

Starts `errdex serve` on a free loopback port with each number of worker processes, and
drives two endpoints with wrk (Debian's `wrk`), each request taking the next of a few
hundred addresses made from the database itself:

- `/api/search?q=...`: a real template of the index with its placeholders filled, printed
  the way Python prints an uncaught exception (what a user pastes);
- `/errors/{id}`: the HTML page of a sampled error id.

Each endpoint is driven three ways, side by side in one run (the machine is shared: compare
within a run, not across runs):

- cold: the server without its response cache (`--cache-mb 0`): every answer built;
- cached: the server with its cache (64 MiB), after every connection has walked every
  address once (each worker keeps its own cache, so each must have seen each address);
- revalidated: the cacheless server again, each request sending the ETag its address was
  answered with (`If-None-Match`): a 304 made from the store's generation, nothing built.
  The tags were collected from the other server: they are the same in every process.

Without wrk it falls back to a small asyncio client (HTTP/1.1 keep-alive, bounded by the
same duration and by a request cap). Requests ask for gzip, as browsers do. The load
generator runs on the same machine, so it takes CPU from the server: the figures are a
floor.
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

Tags = dict[str, str]  # address → the ETag it was answered with


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
def serving(db: str, workers: int, cache_mb: int | None = None) -> Iterator[int]:
    port = free_port()
    command = [sys.executable, "-m", "errdex", "serve", "--db", db, "--port", str(port)]
    if cache_mb is not None:
        command += ["--cache-mb", str(cache_mb)]
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
tags = {%s}
counter = 0
request = function()
  counter = counter + 1
  local at = (counter %% #paths) + 1
  if #tags > 0 then
    return wrk.format("GET", paths[at], {["If-None-Match"] = tags[at]})
  end
  return wrk.format("GET", paths[at])
end
"""


def _lua_strings(items: list[str]) -> str:
    return ", ".join("'" + item.replace("\\", "\\\\").replace("'", "\\'") + "'" for item in items)


def run_wrk(
    port: int, paths: list[str], seconds: int, connections: int, tags: Tags | None = None
) -> dict[str, float]:
    """wrk over `paths` in turn; with `tags`, each request sends its path's tag."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        held = [tags[p] for p in paths] if tags else []
        script.write(LUA % (_lua_strings(paths), _lua_strings(held)))
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


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str, tag: str | None
) -> tuple[bytes, str | None]:
    """One GET on a kept-alive connection: the response's status line and its ETag."""
    held = f"If-None-Match: {tag}\r\n" if tag else ""
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n{held}\r\n".encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
    await reader.readexactly(int(length.group(1)) if length else 0)  # a 304 has no body
    etag = re.search(rb"(?i)\r\netag:\s*([^\r]+)", head)
    return head.split(b"\r\n", 1)[0], etag.group(1).decode() if etag else None


async def _client(
    port: int,
    paths: list[str],
    tags: Tags | None,
    until: float,
    latencies: list[float],
    bad: list[int],
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    rng = random.Random()
    try:
        while time.perf_counter() < until and len(latencies) < MAX_PYTHON_REQUESTS:
            path = rng.choice(paths)
            started = time.perf_counter()
            status, _ = await _exchange(reader, writer, path, tags[path] if tags else None)
            latencies.append((time.perf_counter() - started) * 1000)
            if not status.startswith((b"HTTP/1.1 2", b"HTTP/1.1 3")):
                bad.append(1)
    finally:
        writer.close()


def run_python(
    port: int, paths: list[str], seconds: int, connections: int, tags: Tags | None = None
) -> dict[str, float]:
    latencies: list[float] = []
    bad: list[int] = []

    async def drive() -> None:
        until = time.perf_counter() + seconds
        await asyncio.gather(
            *(_client(port, paths, tags, until, latencies, bad) for _ in range(connections))
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


def walk_everything(port: int, paths: list[str], connections: int) -> Tags:
    """Every connection asks for every address once, in an order of its own: each worker
    then holds every answer in its cache (it got some of the connections). Returns the ETag
    each address was answered with."""
    tags: Tags = {}

    async def walk(seed: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        order = random.Random(seed).sample(paths, len(paths))
        try:
            for path in order:
                status, tag = await _exchange(reader, writer, path, None)
                if not status.startswith(b"HTTP/1.1 200") or tag is None:
                    raise SystemExit(f"{path}: {status.decode()}")
                tags[path] = tag
        finally:
            writer.close()

    async def drive() -> None:
        await asyncio.gather(*(walk(seed) for seed in range(connections)))

    asyncio.run(drive())
    return tags


# The run ------------------------------------------------------------------------------------

MODES = ("cold", "cached", "revalidated")
ENDPOINTS = ("/api/search?q=", "/errors/{id}")


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
    paths = dict(zip(ENDPOINTS, (searches, errors), strict=True))
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
    figures: dict[tuple[str, int, str], dict[str, float]] = {}
    for workers in args.workers:
        with serving(args.db, workers) as port:  # the cache on, as by default
            tags = walk_everything(port, searches + errors, args.connections)
            for name, some in paths.items():
                figures[name, workers, "cached"] = run(port, some, args.duration, args.connections)
        with serving(args.db, workers, cache_mb=0) as port:
            for name, some in paths.items():
                run(port, some[:20], 2, args.connections)  # warm up the processes
                figures[name, workers, "cold"] = run(port, some, args.duration, args.connections)
                figures[name, workers, "revalidated"] = run(
                    port, some, args.duration, args.connections, tags
                )
    print_table(figures, args.workers)


def print_table(figures: dict[tuple[str, int, str], dict[str, float]], workers: list[int]) -> None:
    """One row per (endpoint, workers): req/s, p50 and p99 of each mode side by side."""
    groups = " | ".join(f"{mode:>11}: {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7}" for mode in MODES)
    print(f"{'endpoint':<15} {'workers':>7} | {groups} | non-2xx/3xx")
    for name in ENDPOINTS:
        for count in workers:
            cells = []
            bad = 0
            for mode in MODES:
                found = figures[name, count, mode]
                bad += int(found["bad"])
                cells.append(
                    f"{'':>11}  {found['rps']:>7.1f} {found['p50']:>7.2f} {found['p99']:>7.1f}"
                )
            print(f"{name:<15} {count:>7} | {' | '.join(cells)} | {bad}")


if __name__ == "__main__":
    main()
