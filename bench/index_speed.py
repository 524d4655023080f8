"""Indexing speed on a real wheel, beside the baselines measured in the same run.

    python bench/index_speed.py [--package vllm==0.33.0] [--previous vllm==0.32.0]

Prints, for the package's wheel (downloaded once into errdex's cache; never installed):
- single-threaded stdlib `ast.parse` of every `.py` file (the baseline), and a `raise `
  count with `bytes.count` (the floor);
- a cold index (empty cache, empty database), a re-index of the same version, and adding
  the previous release to that database beside indexing it alone with a cold cache;
- site counts by kind, and the peak memory of each run.
Each run is its own process, so its timings and peak memory are its own.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.sources import open_source
from errdex.store import open_store


def _peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def stage_baseline(spec: str) -> dict[str, Any]:
    source = open_source(spec)
    files = [f.data for f in source.files()]
    started = time.perf_counter()
    count = sum(data.count(b"raise ") for data in files)
    grep_seconds = time.perf_counter() - started
    started = time.perf_counter()
    failed = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for data in files:
            try:
                ast.parse(data)
            except SyntaxError:
                failed += 1
    return {
        "files": len(files),
        "megabytes": sum(map(len, files)) / 1e6,
        "raise_statements": count,
        "grep_seconds": grep_seconds,
        "ast_parse_seconds": time.perf_counter() - started,
        "parse_failures": failed,
    }


def stage_index(spec: str, db: str, cache: str, force: str = "") -> dict[str, Any]:
    # The wheel stays in errdex's download cache (fetched before any timing); only the
    # facts cache is the run's own, so "cold" means no facts, not a fresh download.
    started = time.perf_counter()
    source = open_source(spec)
    store = open_store(db)
    try:
        facts = FactsCache(Path(cache) / "facts.sqlite3")
        report = index_source(source, store, cache=facts, force=bool(force))
    finally:
        store.close()
    return {
        "wall_seconds": time.perf_counter() - started,
        "files": report.files,
        "parsed": report.parsed,
        "cached": report.cached,
        "rechecked": report.rechecked,
        "reparsed": report.reparsed,
        "sites": report.sites,
        "kinds": report.kinds,
        "skipped": len(report.skipped),
        "timings": report.timings,
        "peak_mb": _peak_mb(),
        "cpu_seconds": time.process_time(),
    }


def _run(stage: str, *args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--stage", stage, *args],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="vllm==0.33.0")
    parser.add_argument("--previous", default="vllm==0.32.0")
    parser.add_argument(
        "--cold-only", action="store_true", help="only the baseline and the cold index"
    )
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage == "baseline":
        print(json.dumps(stage_baseline(args.rest[0])))
        return
    if args.stage == "index":
        print(json.dumps(stage_index(*args.rest)))
        return

    open_source(args.package)  # download once, outside every timing
    if args.previous:
        open_source(args.previous)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        db, cache = str(work / "bench.db"), str(work / "cache")
        base = _run("baseline", args.package)
        cold = _run("index", args.package, db, cache)
        rows = [
            ("ast.parse, 1 thread (baseline)", base["ast_parse_seconds"], None),
            ("bytes.count('raise ') (floor)", base["grep_seconds"], None),
            ("errdex index, cold", cold["wall_seconds"], cold),
        ]
        if not args.cold_only:
            again = _run("index", args.package, db, cache)
            warm = _run("index", args.package, db, cache, "force")
            rows.append(
                ("errdex index, same version again (up to date)", again["wall_seconds"], again)
            )
            rows.append(
                ("errdex index --force, same version (all cached)", warm["wall_seconds"], warm)
            )
        if args.previous and not args.cold_only:
            added = _run("index", args.previous, db, cache)
            alone = _run("index", args.previous, str(work / "alone.db"), str(work / "cache2"))
            rows.append((f"add {args.previous} to that database", added["wall_seconds"], added))
            rows.append((f"{args.previous} alone, cold", alone["wall_seconds"], alone))
    print(
        f"{args.package}: {base['files']} files, {base['megabytes']:.1f} MB, "
        f"{base['raise_statements']} 'raise ' occurrences, {os.cpu_count()} cores"
    )
    print(f"{'run':44} {'seconds':>8} {'x ast.parse':>11} {'parsed':>7} {'peak MB':>8}")
    for label, seconds, stats in rows:
        ratio = seconds / base["ast_parse_seconds"]
        parsed = str(stats["parsed"]) if stats else ""
        peak = f"{stats['peak_mb']:.0f}" if stats else ""
        print(f"{label:44} {seconds:8.2f} {ratio:11.3f} {parsed:>7} {peak:>8}")
    stages = ", ".join(f"{k} {v:.2f} s" for k, v in cold["timings"].items())
    print(f"cold stages: {stages}; CPU {cold['cpu_seconds']:.1f} s in the main process")
    print(
        f"second round (cold): {cold['rechecked']} files looked at again for calls of other "
        f"files' raising helpers, {cold['reparsed']} parsed again"
    )
    print("sites by kind (cold):", json.dumps(cold["kinds"], sort_keys=True))
    print("files skipped:", cold["skipped"])


if __name__ == "__main__":
    main()
