"""Lookup accuracy on real exceptions raised by packages errdex was never tuned on.

    python bench/accuracy/live.py [--packages jinja2==3.1.4 ...] [--per-package 40]

For each package version: install it (with its dependencies) into a scratch folder, and in a
separate process call its public functions and classes with wrong arguments
(`live_harvest.py`), keeping each exception raised by a `raise` statement of the package's own
code. Where it came from is then known for certain: the innermost frame of its traceback.
errdex indexes the same version's wheel (never importing it) and looks up each exception
twice, as users paste them: the whole traceback, and only its last line
(`ValueError: ...`). A lookup counts as found at rank k when one of the first k matches is
a site of that version spanning the raising line. The grep baseline searches the package's
source for the longest literal run of the last line's message, as `run.py` does.

The default packages are outside the issue-based set in `cases/`, and nothing in errdex was
written with them in view.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from errdex.errors import ErrdexError
from errdex.indexing import index_source
from errdex.match import lookup_text
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store

sys.path.insert(0, str(Path(__file__).parent))
from live_harvest import MARK
from run import error_ids, grep_hits

HERE = Path(__file__).parent
OUT = HERE.parent / "out" / "live"
DEFAULT_PACKAGES = (
    "jinja2==3.1.4",
    "marshmallow==3.21.3",
    "attrs==23.2.0",
    "jsonschema==4.22.0",
    "python-dateutil==2.9.0.post0",
    "semver==3.0.2",
    "tomlkit==0.12.5",
    "sqlparse==0.5.0",
    "pyparsing==3.1.2",
    "humanize==4.9.0",
    "isodate==0.6.1",
    "networkx==3.3",
    "more-itertools==10.3.0",
    "cattrs==23.2.3",
    "rfc3986==2.0.0",
    "voluptuous==0.14.2",
)
# Import names that differ from the distribution's name.
IMPORT_NAMES = {"python-dateutil": "dateutil", "more-itertools": "more_itertools"}


def harvest(spec: str) -> list[dict[str, Any]]:
    """Real exceptions of `spec`, installed once into bench/out/live (kept between runs)."""
    name = spec.split("==")[0]
    folder = OUT / spec
    records = folder / "exceptions.jsonl"
    if not records.exists():
        target = folder / "site"
        if not target.exists():
            pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-input"]
            subprocess.run([*pip, "--target", str(target), spec], check=True)
        with tempfile.TemporaryDirectory() as scratch:
            env = {"PATH": os.environ.get("PATH", ""), "HOME": scratch, "LC_ALL": "C.UTF-8"}
            module = IMPORT_NAMES.get(name, name.replace("-", "_"))
            run = subprocess.run(
                [sys.executable, "-I", str(HERE / "live_harvest.py"), str(target), module],
                cwd=scratch,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
            )
        # A call may end the process (`os._exit`): what was printed before still counts.
        lines = [
            line.removeprefix(MARK) for line in run.stdout.splitlines() if line.startswith(MARK)
        ]
        records.write_text("".join(line + "\n" for line in lines))
    return [json.loads(line) for line in records.read_text().splitlines()]


def found_at(
    store: Store, version: str, record: dict[str, Any], ids: list[list[str]]
) -> int | None:
    for rank, group in enumerate(ids, start=1):
        for error_id in group:
            for stored in store.get_error(error_id):
                if stored.version != version or stored.file != record["file"]:
                    continue
                if stored.site.line <= record["line"] <= stored.site.end_line:
                    return rank
    return None


def grep_rank(record: dict[str, Any], files: dict[str, bytes]) -> int | None:
    for rank, (path, line) in enumerate(grep_hits(record["last_line"], files), start=1):
        # The message sits on the raise line or a few lines below it.
        if path == record["file"] and record["line"] <= line <= record["line"] + 5:
            return rank
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", nargs="+", default=list(DEFAULT_PACKAGES))
    parser.add_argument("--per-package", type=int, default=40, help="at most this many sites")
    parser.add_argument("--db", default=str(OUT / "live.db"))
    parser.add_argument("--verbose", action="store_true", help="print every last-line miss")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    store = open_store(args.db)
    ranks: dict[str, list[int | None]] = {"traceback": [], "last line": [], "grep": []}
    per_package: dict[str, Counter[str]] = {}
    latencies: list[float] = []
    for spec in args.packages:
        try:
            records = harvest(spec)
        except (subprocess.SubprocessError, OSError) as error:
            print(f"{spec}: cannot harvest ({error})", file=sys.stderr)
            continue
        # A fixed sample, so that runs compare; packages with many sites do not dominate.
        records = random.Random(spec).sample(records, min(len(records), args.per_package))
        source = open_source(spec)
        files = {f.path: f.data for f in source.files()}
        index_source(source, store)  # at once when it holds this version made the same way
        tally = per_package.setdefault(spec, Counter())
        for record in records:
            tally["exceptions"] += 1
            for form, text in (
                ("traceback", record["traceback"]),
                ("last line", record["last_line"]),
            ):
                started = time.perf_counter()
                try:
                    ids = [error_ids(m) for m in lookup_text(store, text, limit=3).matches]
                except ErrdexError:
                    ids = []
                latencies.append(time.perf_counter() - started)
                rank = found_at(store, source.info.version, record, ids)
                ranks[form].append(rank)
                tally[f"{form} top-1"] += rank == 1
                if args.verbose and form == "last line" and rank != 1:
                    print(
                        f"MISS {spec} {record['file']}:{record['line']} rank={rank}: "
                        f"{record['last_line'][:160]!r}"
                    )
            ranks["grep"].append(grep_rank(record, files))
    store.close()
    total = len(ranks["grep"])
    if not total:
        sys.exit("no exceptions harvested")

    def share(values: list[int | None], k: int) -> str:
        hits = sum(1 for r in values if r is not None and r <= k)
        return f"{hits}/{total} = {hits / total:.1%}"

    print(f"{'package':32} {'exceptions':>10} {'traceback top-1':>16} {'last line top-1':>16}")
    for spec, tally in per_package.items():
        print(
            f"{spec:32} {tally['exceptions']:>10} {tally['traceback top-1']:>16} "
            f"{tally['last line top-1']:>16}"
        )
    print(f"\n{total} exceptions from {len(per_package)} packages")
    print(f"{'method':22} {'top-1':>16} {'top-3':>16}")
    for form in ("traceback", "last line"):
        print(f"{'errdex, ' + form:22} {share(ranks[form], 1):>16} {share(ranks[form], 3):>16}")
    print(f"{'grep, last line':22} {share(ranks['grep'], 1):>16} {share(ranks['grep'], 3):>16}")
    latencies.sort()
    print(
        f"lookup latency: median {latencies[len(latencies) // 2] * 1000:.1f} ms, "
        f"max {latencies[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
