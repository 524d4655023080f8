"""The 300 most-downloaded projects of the package index, each indexed as errdex reads them.

    python bench/hostile_packages.py [--list bench/hostile/top300.txt] [--limit N]
                                     [--out results.jsonl] [--retry-failed] [--timeout S]

For each project: its newest final release is found on the index pip is configured with,
its wheel (or its sdist where there is no wheel) fetched through `errdex.sources` into
errdex's download cache (hash-checked, never built), and indexed into a scratch SQLite file
with a scratch facts cache, one project at a time, one extraction worker. Each project runs
in a process of its own under a wall-clock limit, so a hang or a crash is counted against
that project and the run goes on; its peak memory is that process's.

Prints the projects whose run failed (the goal is none), files skipped by reason, the total
time and sites. Results go to a JSON-lines file one project at a time, so a run cut short
keeps what it did; `--retry-failed` runs again only the projects that failed there.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_LIST = HERE / "hostile" / "top300.txt"


def read_list(path: Path) -> list[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def newest_spec(name: str) -> str:
    """`name==version` for the project's newest final release with a wheel or an sdist."""
    from errdex.errors import SourceError
    from errdex.sources.pip_config import index_settings
    from errdex.sources.simple_index import IndexClient, newest_version

    with IndexClient(index_settings()) as client:
        files = client.project_files(name)
    if files is None:
        raise SourceError(f"no project {name} on the index")
    version = newest_version(files)
    if version is None:
        raise SourceError(f"{name} has no final release with a wheel or an sdist")
    return f"{name}=={version}"


def run_one(name: str, db: Path, cache: Path) -> dict[str, Any]:
    """Index one project (in this process) and say what happened."""
    from errdex.errors import ErrdexError
    from errdex.indexing import index_source
    from errdex.indexing.cache import FactsCache
    from errdex.sources import open_source
    from errdex.store import open_store

    result: dict[str, Any] = {"name": name}
    started = time.perf_counter()
    try:
        spec = newest_spec(name)
        result["spec"] = spec
        fetch_started = time.perf_counter()
        source = open_source(spec)
        result["fetch_seconds"] = time.perf_counter() - fetch_started
        result["archive"] = Path(getattr(source, "path", "")).name
        store = open_store(db)
        facts = FactsCache(cache)
        try:
            report = index_source(source, store, cache=facts, workers=1)
        finally:
            facts.close()
            store.close()
        result.update(
            ok=True,
            files=report.files,
            sites=report.sites,
            skipped=[[s.path, s.reason] for s in report.skipped],
        )
    except ErrdexError as exc:
        result.update(ok=False, error=f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # the bench counts any crash: that is what it is for
        result.update(ok=False, error=f"crash {type(exc).__name__}: {exc}")
    result["seconds"] = time.perf_counter() - started
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def run_isolated(name: str, db: Path, cache: Path, timeout: float) -> dict[str, Any]:
    command = [sys.executable, __file__, "--one", name, "--db", str(db), "--cache", str(cache)]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"name": name, "ok": False, "error": f"timed out after {timeout:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {
            "name": name,
            "ok": False,
            "error": f"process exited {done.returncode}: {tail}",
            "seconds": time.perf_counter() - started,
        }
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def reason_kind(reason: str) -> str:
    """A skip reason without its numbers and names, so like reasons add up."""
    kind = re.sub(r"\d[\d,.]*", "N", reason)
    return re.sub(r"line N: .*", "line N: ...", kind)


def summarize(results: list[dict[str, Any]], wall: float | None) -> str:
    failed = [r for r in results if not r.get("ok")]
    reasons: Counter[str] = Counter()
    for r in results:
        for _, reason in r.get("skipped", []):
            reasons[reason_kind(reason)] += 1
    lines = [
        f"projects: {len(results)}; failed runs: {len(failed)}",
        f"sites: {sum(r.get('sites', 0) for r in results)};"
        f" files indexed: {sum(r.get('files', 0) for r in results)}",
        f"time: {sum(r.get('seconds', 0) for r in results):.0f} s summed over projects"
        + (f", {wall:.0f} s wall" if wall is not None else ""),
        f"peak memory of one project: {max((r.get('peak_mb', 0) for r in results), default=0):.0f}"
        " MB",
        "files skipped, by reason:",
    ]
    lines += [f"  {count:6d}  {reason}" for reason, count in reasons.most_common()]
    if failed:
        lines.append("failed runs:")
        lines += [f"  {r['name']}: {r.get('error')}" for r in failed]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", type=Path, default=DEFAULT_LIST)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--out", type=Path, default=Path("hostile-packages.jsonl"))
    parser.add_argument("--retry-failed", action="store_true")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per project")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.one:
        print(json.dumps(run_one(args.one, args.db, args.cache)), flush=True)
        return

    names = read_list(args.list)[: args.limit]
    done: dict[str, dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            record = json.loads(line)
            done[record["name"]] = record
    if args.retry_failed:
        todo = [n for n in names if n in done and not done[n].get("ok")]
    else:
        todo = [n for n in names if n not in done]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="errdex-bench-") as scratch:
        db, cache = Path(scratch) / "index.db", Path(scratch) / "facts.sqlite3"
        for position, name in enumerate(todo, 1):
            result = run_isolated(name, db, cache, args.timeout)
            done[name] = result
            args.out.write_text("".join(json.dumps(r) + "\n" for r in done.values()))
            state = "ok" if result.get("ok") else f"FAILED {result.get('error')}"
            print(
                f"[{position}/{len(todo)}] {result.get('spec', name)}:"
                f" {result.get('sites', 0)} sites, {result.get('seconds', 0):.1f} s, {state}",
                flush=True,
            )
    wall = time.perf_counter() - started
    print(summarize([done[n] for n in names if n in done], wall))


if __name__ == "__main__":
    main()
