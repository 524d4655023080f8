"""Lookup accuracy on real cases from public issues, beside a grep baseline, in one run.

    python bench/accuracy/run.py [--db PATH] [--cases DIR] [--only PACKAGE] [--verbose]

`--cases DIR` runs another set of cases: DIR/cases/*.json if DIR has a `cases` folder, else
DIR/*.json (for example `--cases bench/accuracy/heldout`, the held-out set). The default is
this folder's set.

Every package version the cases need is indexed into one database (downloaded with pip into
errdex's cache, never installed), then each case's paste is looked up with no project or
version given, as a user would. A case counts as found at rank k when one of the first k
matches is the same error as the expected site in the case's version: the same file, with
the statement spanning the expected line; an error followed across versions (reworded or
moved between releases, see `errdex.history`) counts by where it was in the case's version.

The baseline greps the package's source at the case's version for the longest literal run
of the pasted message (the message as errdex's paste parser reads it, so both start from the
same text) and takes hits in path order.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from errdex.errors import ErrdexError
from errdex.history.timeline import lineage
from errdex.indexing import index_source
from errdex.match import Match, lookup_text, parse_paste
from errdex.match.pattern import literal_runs
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store

HERE = Path(__file__).parent


def case_files(folder: Path) -> list[Path]:
    """The case files of a set: FOLDER/cases/*.json, or FOLDER/*.json when it has no `cases`."""
    inner = folder / "cases"
    return sorted((inner if inner.is_dir() else folder).glob("*.json"))


def load_cases(folder: Path, only: str | None) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in case_files(folder):
        cases.extend(json.loads(path.read_text()))
    return [c for c in cases if only is None or c["package"] == only]


def ensure_indexed(
    store: Store, cases: list[dict[str, Any]], *, reindex: bool
) -> dict[str, dict[str, bytes]]:
    """Index every (package, version) the cases need; return their sources for grep."""
    sources: dict[str, dict[str, bytes]] = {}
    for spec in sorted({f"{c['package']}=={c['version']}" for c in cases}):
        source = open_source(spec)
        files = {f.path: f.data for f in source.files()}
        sources[spec] = files
        label = source.info.version
        if reindex or not store.has_version(source.info.project, label, source.info.revision):
            report = index_source(source, store)
            print(
                f"indexed {spec}: {report.sites} sites in {report.seconds:.1f} s", file=sys.stderr
            )
    return sources


def error_ids(match: Match) -> list[str]:
    """The ids one result stands for: its own, its error's ids in other releases, and the
    call that gave the helper it is raised in its text (`called_at`: the result names it)."""
    call = [match.called_at.id] if match.called_at is not None else []
    return [match.id, *match.merged, *call]


def found_at(store: Store, case: dict[str, Any], match_ids: list[list[str]]) -> int | None:
    """The rank (1-based) of the first match that is the expected site, or None.

    `match_ids` holds each match's ids (`error_ids`). A match counts when its error,
    followed across versions (the same id, or the id it was reworded or moved from), sits
    at the expected file and line in the case's version.
    """
    expected = case["expected"]
    for rank, ids in enumerate(match_ids, start=1):
        for error_id in ids:
            for stored in store.get_error(error_id):
                if stored.version != case["version"] or stored.file != expected["file"]:
                    continue
                if stored.site.line <= expected["line"] <= stored.site.end_line:
                    return rank
            for entry in lineage(store, error_id):
                if (entry.version, entry.file, entry.line) == (
                    case["version"],
                    expected["file"],
                    expected["line"],
                ) and entry.status != "removed":
                    return rank
    return None


def grep_hits(paste: str, files: dict[str, bytes]) -> list[tuple[str, int]]:
    """The baseline: the first three (path, line) holding the longest literal run of the
    pasted message (as errdex's paste parser reads it), in path order."""
    evidence = parse_paste(paste)
    message = evidence.errors[0].message if evidence.errors else paste
    runs = literal_runs(message) or [message.strip()]
    needle = max(runs, key=len).encode()
    hits: list[tuple[str, int]] = []
    for path in sorted(files):
        data = files[path]
        at = data.find(needle)
        while at != -1 and len(hits) < 3:
            hits.append((path, data.count(b"\n", 0, at) + 1))
            at = data.find(needle, at + 1)
        if len(hits) >= 3:
            break
    return hits


def grep_rank(case: dict[str, Any], files: dict[str, bytes]) -> int | None:
    expected = case["expected"]
    span = len(expected["statement"].splitlines()) or 1
    for rank, (path, line) in enumerate(grep_hits(case["paste"], files), start=1):
        if path == expected["file"] and expected["line"] <= line < expected["line"] + span:
            return rank
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(HERE.parent / "out" / "accuracy.db"))
    parser.add_argument(
        "--cases",
        type=Path,
        default=HERE,
        help="the set to run: a folder with cases/*.json (or *.json); default: this folder's",
    )
    parser.add_argument("--only", help="only the cases of this package")
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    parser.add_argument("--reindex", action="store_true", help="index every version again")
    args = parser.parse_args()
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    cases = load_cases(args.cases, args.only)
    if not cases:
        parser.error(f"no cases in {args.cases}" + (f" for {args.only}" if args.only else ""))
    store = open_store(args.db)
    sources = ensure_indexed(store, cases, reindex=args.reindex)
    errdex_ranks: list[int | None] = []
    grep_ranks: list[int | None] = []
    latencies: list[float] = []
    for case in cases:
        started = time.perf_counter()
        try:
            matches = lookup_text(store, case["paste"], limit=3).matches
        except ErrdexError as error:
            matches = []
            print(f"{case['id']}: errdex error: {error}", file=sys.stderr)
        latencies.append(time.perf_counter() - started)
        rank = found_at(store, case, [error_ids(m) for m in matches])
        errdex_ranks.append(rank)
        grep_ranks.append(grep_rank(case, sources[f"{case['package']}=={case['version']}"]))
        if args.verbose and rank != 1:
            got = [f"{m.project} {m.version} {m.file}:{m.line}" for m in matches]
            exp = case["expected"]
            print(f"MISS {case['id']} rank={rank}: want {exp['file']}:{exp['line']} got {got}")
    store.close()
    total = len(cases)

    def share(ranks: list[int | None], k: int) -> str:
        hits = sum(1 for r in ranks if r is not None and r <= k)
        return f"{hits}/{total} = {hits / total:.1%}"

    packages = sorted({c["package"] for c in cases})
    print(f"{total} cases, {len(packages)} packages ({', '.join(packages)})")
    print(f"{'method':10} {'top-1':>16} {'top-3':>16}")
    print(f"{'errdex':10} {share(errdex_ranks, 1):>16} {share(errdex_ranks, 3):>16}")
    print(f"{'grep':10} {share(grep_ranks, 1):>16} {share(grep_ranks, 3):>16}")
    print(
        f"lookup latency: median {statistics.median(latencies) * 1000:.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
