"""Error pages, cold and cached: p50/p99 of `/errors/{id}` and `/api/errors/{id}`.

    python bench/web_pages.py [--db PATH] [--package vllm==0.33.0] [--count 200]

Without `--db` it first indexes the package (its wheel from errdex's download cache; never
installed) into `bench/out/web_pages.db` with an empty facts cache, and prints how long
that took and the database's size. With `--db` it uses that database as it is.

Then it starts `errdex serve` with one worker and its response cache, and asks for `count`
random error ids, one request at a time over one keep-alive connection:

- cold: the first request of each id, every other id as HTML, the others as JSON (so
  no page of an id was built before, for either face);
- cached: the same addresses again, answered from the worker's response cache.

A few other ids are asked first, so imports and templates are loaded before any timing.
The client runs on the same machine: the figures include it and loopback, a floor on a
quiet machine and noisy on a loaded one.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from web_load import serving

from errdex.store import open_store

OUT = Path(__file__).resolve().parent / "out"


def index_cold(package: str, db: Path) -> tuple[float, int]:
    """Index `package` into a new `db` with an empty facts cache: (seconds, bytes)."""
    db.unlink(missing_ok=True)
    downloads = Path(os.environ.get("ERRDEX_CACHE") or Path.home() / ".cache" / "errdex")
    with tempfile.TemporaryDirectory() as cache:
        # the same downloads, an empty cache of extracted facts
        (Path(cache) / "downloads").symlink_to(downloads / "downloads")
        env = {**os.environ, "ERRDEX_CACHE": cache}
        command = [sys.executable, "-m", "errdex", "index", package, "--db", str(db)]
        started = time.perf_counter()
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
    return seconds, db.stat().st_size


def error_ids(db: Path) -> list[str]:
    with open_store(db) as store:
        ids = {s.id for p in store.projects() for s in store.list_sites(project=p.name)}
    return sorted(ids)


def timed(connection: http.client.HTTPConnection, path: str) -> float:
    """Milliseconds from sending the request to the last byte of the answer."""
    for _ in range(2):
        try:
            started = time.perf_counter()
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            break
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            connection.close()  # the server closed an idle keep-alive: connect again
    elapsed = (time.perf_counter() - started) * 1000
    if response.status != 200:
        raise SystemExit(f"{path}: HTTP {response.status}")
    return elapsed


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def draw(ids: list[str], count: int, seed: int) -> tuple[list[str], list[str]]:
    """The 3 ids asked first (untimed) and the `count` ids timed, drawn with `seed`."""
    chosen = random.Random(seed).sample(ids, min(len(ids), count + 3))
    return chosen[:3], chosen[3:]


def table(times: dict[str, list[float]], digits: int = 1) -> list[str]:
    """The p50/p99 of each face, cold and cached (`times`: "html cold" → figures)."""
    lines = [f"{'':8} {'cold p50':>9} {'p99':>7} {'cached p50':>11} {'p99':>7}"]
    for face in ("html", "json"):
        cold, cached = times[f"{face} cold"], times[f"{face} cached"]
        lines.append(
            f"{face:8} {statistics.median(cold):9.{digits}f} {percentile(cold, 0.99):7.{digits}f}"
            f" {statistics.median(cached):11.{digits}f} {percentile(cached, 0.99):7.{digits}f}"
        )
    return lines


def measure(db: Path, ids: list[str], warmup: list[str]) -> dict[str, list[float]]:
    # the two faces alternate, so a load that comes and goes falls on both alike
    paths = [f"/errors/{i}" if n % 2 else f"/api/errors/{i}" for n, i in enumerate(ids)]
    times: dict[str, list[float]] = {}
    with serving(str(db), workers=1) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for error_id in warmup:
            timed(connection, f"/errors/{error_id}")
            timed(connection, f"/api/errors/{error_id}")
        for state in ("cold", "cached"):
            for path in paths:
                face = "html" if path.startswith("/errors/") else "json"
                times.setdefault(f"{face} {state}", []).append(timed(connection, path))
        connection.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="an indexed database (default: index anew)")
    parser.add_argument("--package", default="vllm==0.33.0")
    parser.add_argument("--count", type=int, default=200, help="error ids asked cold")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    db = args.db
    if db is None:
        OUT.mkdir(exist_ok=True)
        db = OUT / "web_pages.db"
        seconds, size = index_cold(args.package, db)
        print(f"index {args.package} (empty facts cache): {seconds:.1f} s, {size / 1e6:.1f} MB")
    ids = error_ids(db)
    if len(ids) < 4:
        raise SystemExit(f"{db} holds {len(ids)} errors: index something first")
    warmup, sample = draw(ids, args.count, args.seed)
    times = measure(db, sample, warmup)
    print(f"{len(ids)} error ids; {len(sample)} asked, one worker (ms, client side)")
    print("\n".join(table(times)))


if __name__ == "__main__":
    main()
