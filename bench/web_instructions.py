"""Error pages in one process: instructions, CPU time and hashes of cold and cached pages.

    python bench/web_instructions.py --db PATH [--count 200] [--seed 19] callgrind [--src A B]
    python bench/web_instructions.py --db PATH [--count 200] cpu [--rounds 3] [--slowest 10]
    python bench/web_instructions.py --db PATH [--count 2000] hashes --out FILE
    python bench/web_instructions.py compare OLD NEW
    python bench/web_instructions.py --db PATH profile [--top 40]

The pages are asked of the web app itself (`create_app`, its response cache and collector
as `errdex serve` runs them), in this process through Starlette's test client: `count`
random error ids (the seed and draw of `web_pages.py`), each id's first request cold (its
page built), every other id as HTML (`/errors/{id}`), the others as JSON (`/api/errors/
{id}`); then cached, the same addresses again, answered from the response cache. A few
other ids are asked first, so imports and templates are loaded before anything counts.

- `callgrind`: runs this script under `valgrind --tool=callgrind` three times (no page, the
  cold pages, the cold then the cached pages; PYTHONHASHSEED=0) and prints the instructions
  per cold page and per cached page: the differences of the totals over the pages asked.
  `--src A B` counts each source tree in turn (before and after a change, in one run).
  Instruction counts do not move with the machine's load, as times do on a shared machine.
- `cpu`: the process's CPU time of each request, cold and cached, p50/p99 per face, and
  the slowest cold pages (where a tail comes from).
- `hashes`: a digest of every answer's body, both faces, for `compare` to say that a change
  leaves every page as it was (ids drawn from the whole index: `--count` many).
- `profile`: cProfile over the cold pages, the functions by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import os
import pstats
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from starlette.testclient import TestClient
from web_pages import draw, error_ids, table

import errdex
from errdex.explain.page_reads import page_reads
from errdex.render.json import encode
from errdex.store import open_store
from errdex.store.base import Store
from errdex.web.app import create_app
from errdex.web.collector import serving_collector
from errdex.web.links import Links
from errdex.web.pages import page_context
from errdex.web.templating import render_page

WARMUP = 3


def addresses(db: str, count: int, seed: int) -> tuple[list[str], list[str]]:
    """The warm-up ids and the addresses asked (as `web_pages.py` draws them)."""
    warmup, sample = draw(error_ids(Path(db)), count, seed)
    paths = [f"/errors/{i}" if n % 2 else f"/api/errors/{i}" for n, i in enumerate(sample)]
    return warmup, paths


@contextmanager
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, pool_size=1)) as test_client:
        yield test_client


def ask(test_client: TestClient, path: str) -> bytes:
    response = test_client.get(path)
    if response.status_code != 200:
        raise SystemExit(f"{path}: HTTP {response.status_code}")
    return response.content


def warm(test_client: TestClient, warmup: list[str]) -> None:
    for error_id in warmup:
        ask(test_client, f"/errors/{error_id}")
        ask(test_client, f"/api/errors/{error_id}")


def face(path: str) -> str:
    return "html" if path.startswith("/errors/") else "json"


# callgrind ----------------------------------------------------------------------------------

_TOTAL = re.compile(r"^summary:\s*(\d+)", re.MULTILINE)


def run_pages(args: argparse.Namespace) -> None:
    """The child under valgrind: warm up, then the cold pages, then the cached ones (the
    addresses from the file its parent wrote: listing the index's ids is not counted)."""
    listed = Path(args.addresses).read_text("utf-8").split()
    warmup, paths = listed[:WARMUP], listed[WARMUP:]
    with client(args.db) as test_client:
        warm(test_client, warmup)
        for _state in ("cold", "cached")[: args.phases]:
            for path in paths:
                ask(test_client, path)


def instructions(args: argparse.Namespace, count: int, phases: int, src: str | None) -> int:
    warmup, paths = addresses(args.db, args.count, args.seed)
    with tempfile.TemporaryDirectory() as out:
        counts = Path(out) / "callgrind.out"
        listed = Path(out) / "addresses"
        listed.write_text("\n".join([*warmup, *paths[:count]]), "utf-8")
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={counts}",
            "--dump-line=no",
            "--compress-strings=no",
            sys.executable,
            __file__,
            "--db",
            args.db,
            "pages",
            "--addresses",
            str(listed),
            "--phases",
            str(phases),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        if src is not None:
            env["PYTHONPATH"] = src
        subprocess.run(command, env=env, check=True, stderr=subprocess.DEVNULL)
        found = _TOTAL.search(counts.read_text("utf-8", "replace"))
        if found is None:
            raise SystemExit("callgrind wrote no summary")
        return int(found.group(1))


def callgrind(args: argparse.Namespace) -> None:
    print(f"{args.count} pages (half HTML, half JSON), seed {args.seed}, PYTHONHASHSEED=0")
    print(f"{'':24} {'no page':>10} {'per cold page':>14} {'per cached page':>16} (M instr.)")
    for src in args.src or [None]:
        none = instructions(args, 0, 0, src)
        cold = instructions(args, args.count, 1, src)
        both = instructions(args, args.count, 2, src)
        print(
            f"{src or 'this environment':24} {none / 1e6:10,.1f}"
            f" {(cold - none) / args.count / 1e6:14.2f} {(both - cold) / args.count / 1e6:16.2f}",
            flush=True,
        )


# cpu ----------------------------------------------------------------------------------------


def cpu(args: argparse.Namespace) -> None:
    warmup, paths = addresses(args.db, args.count, args.seed)
    times: dict[str, list[float]] = {}
    cold_of: dict[str, list[float]] = {}
    for _ in range(args.rounds):  # a new app each round: every page cold again
        with client(args.db) as test_client:
            warm(test_client, warmup)
            for state in ("cold", "cached"):
                for path in paths:
                    started = time.process_time()
                    ask(test_client, path)
                    spent = (time.process_time() - started) * 1000
                    times.setdefault(f"{face(path)} {state}", []).append(spent)
                    if state == "cold":
                        cold_of.setdefault(path, []).append(spent)
    print(f"{len(paths)} addresses x {args.rounds} rounds, CPU ms per request (one process)")
    print("\n".join(table(times, digits=2)))
    slowest = sorted(cold_of.items(), key=lambda item: -min(item[1]))[: args.slowest]
    for path, spent in slowest:
        print(f"  {min(spent):7.2f} ms  {path}")


# hashes -------------------------------------------------------------------------------------


def hashes(args: argparse.Namespace) -> None:
    _, paths = addresses(args.db, args.count, args.seed)
    # both faces of every id drawn
    ids = [p.rsplit("/", 1)[1] for p in paths]
    with client(args.db) as test_client, open(args.out, "w", encoding="utf-8") as out:
        for error_id in ids:
            for path in (f"/api/errors/{error_id}", f"/errors/{error_id}"):
                digest = hashlib.blake2b(ask(test_client, path), digest_size=16).hexdigest()
                out.write(f"{path} {digest}\n")
    print(f"{2 * len(ids)} pages hashed into {args.out}")


def compare(args: argparse.Namespace) -> None:
    def read(name: str) -> dict[str, str]:
        lines = Path(name).read_text("utf-8").splitlines()
        return dict(line.split(" ", 1) for line in lines if line)

    old, new = read(args.old), read(args.new)
    differ = sorted(p for p in old.keys() & new.keys() if old[p] != new[p])
    for path in differ:
        print(path)
    missing = len(old.keys() ^ new.keys())
    print(f"{len(differ)} of {len(old.keys() & new.keys())} pages differ; {missing} in one only")


# profile ------------------------------------------------------------------------------------


def build(store: Store, path: str) -> bytes:
    """What the route of `path` builds, in this thread (the app builds in a worker thread,
    which a profiler of this one does not see)."""
    error_id = path.rsplit("/", 1)[1]
    reads = page_reads(store)
    page = errdex.show(error_id, db=reads)
    if face(path) == "json":
        return encode(page)
    return render_page("error.html", Links(""), request_path=path, **page_context(reads, page))


def profile(args: argparse.Namespace) -> None:
    warmup, paths = addresses(args.db, args.count, args.seed)
    with open_store(args.db) as store, serving_collector():
        for error_id in warmup:
            build(store, f"/errors/{error_id}")
            build(store, f"/api/errors/{error_id}")
        profiler = cProfile.Profile()
        for path in paths:
            profiler.enable()
            build(store, path)
            profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats(args.sort).print_stats(args.top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="an indexed database (read only)")
    parser.add_argument("--count", type=int, default=200, help="error ids asked")
    parser.add_argument("--seed", type=int, default=19)
    modes = parser.add_subparsers(dest="mode", required=True)
    counting = modes.add_parser("callgrind")
    counting.add_argument(
        "--src", nargs="*", help="source trees to count, one after the other (as PYTHONPATH)"
    )
    pages = modes.add_parser("pages")  # the child `callgrind` runs
    pages.add_argument("--addresses", required=True)
    pages.add_argument("--phases", type=int, default=2)
    timing = modes.add_parser("cpu")
    timing.add_argument("--rounds", type=int, default=3)
    timing.add_argument("--slowest", type=int, default=10)
    digests = modes.add_parser("hashes")
    digests.add_argument("--out", required=True)
    differ = modes.add_parser("compare")
    differ.add_argument("old")
    differ.add_argument("new")
    profiling = modes.add_parser("profile")
    profiling.add_argument("--top", type=int, default=40)
    profiling.add_argument("--sort", default="cumulative")
    args = parser.parse_args()
    if args.mode != "compare" and not args.db:
        parser.error("--db is required")
    {
        "callgrind": callgrind,
        "pages": run_pages,
        "cpu": cpu,
        "hashes": hashes,
        "compare": compare,
        "profile": profile,
    }[args.mode](args)


if __name__ == "__main__":
    main()
