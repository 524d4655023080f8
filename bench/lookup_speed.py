"""Lookup latency with tens of thousands of sites indexed, inside one process.

    python bench/lookup_speed.py [--db PATH] [--packages vllm==0.33.0 vllm==0.32.0 ...]

Indexes the packages (once; the database is kept under bench/out/), then looks up 1,000
messages made from real templates of the index with their placeholders filled by values of
the kinds users paste (numbers, model names, paths, quoted names), printed the way Python
prints an uncaught exception. Prints p50/p90/p99 latency, how often the sampled site came
first, the time for a 1 MB log paste, the process's peak memory and the index's size.

To compare with another revision's index (its size, and lookups in it), run this file
with that revision's `src` first on the import path, into a database of its own:

    mkdir OLD && git archive REV src | tar -x -C OLD
    PYTHONPATH=OLD/src python bench/lookup_speed.py --db bench/out/speed-REV.db
"""

from __future__ import annotations

import argparse
import random
import resource
import sqlite3
import statistics
import sys
import time
from pathlib import Path

from errdex.facts import MessageTemplate, Placeholder
from errdex.indexing import index_source
from errdex.match import Match, lookup_text
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store, StoredSite

HERE = Path(__file__).parent
DEFAULT_PACKAGES = [
    "vllm==0.33.0",
    "vllm==0.32.0",
    "transformers==4.54.0",
    "pydantic==2.7.1",
    "huggingface_hub==0.33.0",
    "datasets==3.6.0",
]
VALUES = ["meta-llama/Llama-3-8B", "42", "0.95", "cuda:0", "/data/models/x.safetensors", "bf16"]


def fill(template: MessageTemplate, rng: random.Random) -> str:
    """The message a user would see: each placeholder replaced by a plausible value."""
    out: list[str] = []
    for part in template.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value = rng.choice(VALUES)
        if isinstance(part, Placeholder) and part.spec and part.spec[-1:] in "dn":
            value = str(rng.randint(0, 4096))
        out.append(
            repr(value) if isinstance(part, Placeholder) and part.conversion == "r" else value
        )
    return "".join(out)


def ensure_indexed(store: Store, packages: list[str]) -> None:
    for spec in packages:
        source = open_source(spec)
        if not store.has_version(source.info.project, source.info.version, source.info.revision):
            report = index_source(source, store)
            print(f"indexed {spec}: {report.sites} sites", file=sys.stderr)


def sample_sites(store: Store, n: int, rng: random.Random) -> list[StoredSite]:
    usable = [
        s
        for s in store.list_sites()
        if s.site.message is not None and s.site.message.literal_length >= 12
    ]
    return rng.sample(usable, min(n, len(usable)))


def _shows(match: Match, template: str) -> bool:
    """The first match is a site of the sampled template, or the raise inside a helper
    shown for a call of that text (`called_at`: the call is named in the result)."""
    through = getattr(match, "called_at", None) is not None  # older revisions lack it
    return match.message == template or (through and match.shown == template)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(HERE / "out" / "speed.db"))
    parser.add_argument("--packages", nargs="*", default=DEFAULT_PACKAGES)
    parser.add_argument("--messages", type=int, default=1000)
    args = parser.parse_args()
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    store = open_store(args.db)
    ensure_indexed(store, args.packages)
    total_sites = sum(
        store.stats(p.name, v.label).sites for p in store.projects() for v in store.versions(p.name)
    )
    rng = random.Random(20261130)
    sites = sample_sites(store, args.messages, rng)
    pastes = []
    for stored in sites:
        assert stored.site.message is not None
        name = stored.exception.name if stored.exception else None
        message = fill(stored.site.message, rng)
        pastes.append((stored, f"{name}: {message}" if name else message))
    lookup_text(store, pastes[0][1])  # warm the page cache and the compiled patterns' cache
    latencies: list[float] = []
    first = 0
    for stored, paste in pastes:
        started = time.perf_counter()
        matches = lookup_text(store, paste, limit=3).matches
        latencies.append(time.perf_counter() - started)
        if matches and stored.site.message and _shows(matches[0], stored.site.message.text):
            first += 1
    noise = "INFO 2024-01-01 12:00:00 [engine.py:12] heartbeat: all workers alive\n"
    big = noise * (1_000_000 // len(noise)) + pastes[0][1] + "\n"
    started = time.perf_counter()
    lookup_text(store, big)
    big_seconds = time.perf_counter() - started
    store.close()
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    print(
        f"{total_sites} sites indexed ({len(args.packages)} package versions), "
        f"{len(pastes)} lookups"
    )
    print(
        f"latency ms: p50 {pct(0.50):.2f}  p90 {pct(0.90):.2f}  p99 {pct(0.99):.2f}  "
        f"mean {statistics.mean(latencies) * 1000:.2f}"
    )
    print(f"the sampled template ranked first: {first}/{len(pastes)}")
    print(f"1 MB log paste: {big_seconds * 1000:.0f} ms")
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(index_size(args.db))


def index_size(db: str) -> str:
    """The SQLite file's size, and the tables' and indexes' shares that hold the most, for
    comparing an index built by another revision (run this file with that revision's
    `src` first on `PYTHONPATH`, into another `--db`)."""
    path = Path(db)
    if not path.is_file():
        return f"index size: not a file ({db})"
    total = path.stat().st_size
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
            rows = con.execute(
                "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 8"
            ).fetchall()
    except sqlite3.Error:
        rows = []  # a build of SQLite without the dbstat table: the file's size alone
    parts = ", ".join(f"{name} {size / 2**20:.1f}" for name, size in rows)
    return f"index size: {total / 2**20:.1f} MB" + (
        f" (MB by table or index: {parts})" if parts else ""
    )


if __name__ == "__main__":
    main()
