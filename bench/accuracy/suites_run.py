"""Lookup accuracy per paste form on the test-suite set, beside grep; and every set in one catalog.

    python bench/accuracy/suites_run.py [--db PATH] [--packages NAME ...] [--verbose]
    python bench/accuracy/suites_run.py --one-catalog [--neighbours N] [--db PATH]

The default run takes the cases of `suites/` (built by `suites_harvest.py`), indexes the
release each one came from, and looks each one up in every form it has (the message line,
the whole traceback, the program's printed output) with no project or version given, as a
user would. A form is found at rank k when one of the first k matches is the raising site
in the case's release (as `run.py` counts it). The grep baseline, in the same run, searches
that release's source for the longest literal run of the same form's message (`run.py`'s).
Tuned and held-out packages are reported apart; `--verbose` prints the tuned misses only
(`--held-out-misses` adds those of the held-out packages, once the work is done).

`--one-catalog` runs every accuracy set: the issue cases (`cases/`), the held-out issue
cases (`heldout/`), the live exceptions (`live.py`'s packages and sample) and this set,
against ONE database holding every release any of them needs (a hosted catalog holds many
releases of each package; `--neighbours N` adds the N releases of the same package before
and after each needed one). No version is ever passed to lookup: a case's release is
reached only through the evidence in its paste.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from packaging.version import InvalidVersion, Version

from errdex.errors import ErrdexError
from errdex.indexing import index_source
from errdex.match import lookup_text
from errdex.match.results import Match
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store

sys.path.insert(0, str(Path(__file__).parent))
from run import case_files, error_ids, found_at, grep_hits

HERE = Path(__file__).parent
OUT = HERE.parent / "out"
FORMS = ("message", "traceback", "printed")
# Wheels too big to fetch neighbours of in a benchmark run (hundreds of MB each).
NO_NEIGHBOURS = frozenset({"vllm"})


@dataclass(frozen=True)
class Trial:
    """One paste of one case, and where its error was raised."""

    case: str
    group: str  # the set and, for the suites, tuned or held-out
    package: str
    version: str
    form: str
    text: str
    file: str
    line: int
    end_line: int

    @property
    def spec(self) -> str:
        return f"{self.package}=={self.version}"


def suite_trials(folder: Path, packages: list[str] | None) -> list[Trial]:
    trials = []
    for path in sorted(folder.glob("*.json")):
        for case in json.loads(path.read_text()):
            if packages and case["package"] not in packages:
                continue
            expected = case["expected"]
            group = "suites held-out" if case["held_out"] else "suites tuned"
            for form in FORMS:
                text = case["forms"].get(form)
                if text:
                    trials.append(
                        Trial(case["id"], group, case["package"], case["version"], form, text,
                              expected["file"], expected["line"], expected["end_line"])
                    )  # fmt: skip
    return trials


def issue_trials(folder: Path, group: str) -> list[Trial]:
    trials = []
    for path in case_files(folder):
        for case in json.loads(path.read_text()):
            expected = case["expected"]
            span = len(expected["statement"].splitlines()) or 1
            trials.append(
                Trial(case["id"], group, case["package"], case["version"], "paste", case["paste"],
                      expected["file"], expected["line"], expected["line"] + span - 1)
            )  # fmt: skip
    return trials


def live_trials(per_package: int) -> list[Trial]:
    """`live.py`'s exceptions and sample (harvested on first use: installs and runs them)."""
    from live import DEFAULT_PACKAGES, harvest

    trials = []
    for spec in DEFAULT_PACKAGES:
        package, version = spec.split("==")
        try:
            records = harvest(spec)
        except (subprocess.SubprocessError, OSError) as error:
            print(f"{spec}: cannot harvest ({error})", file=sys.stderr)
            continue
        records = random.Random(spec).sample(records, min(len(records), per_package))
        for number, record in enumerate(records, start=1):
            for form, key in (("traceback", "traceback"), ("last line", "last_line")):
                trials.append(
                    Trial(f"{package}-{number}", "live", package, version, form, record[key],
                          record["file"], record["line"], record["line"] + 5)
                )  # fmt: skip
    return trials


def releases(package: str) -> list[str]:
    """The package's final releases, oldest first (pip's index listing, cached)."""
    cache = OUT / "releases.json"
    known: dict[str, list[str]] = json.loads(cache.read_text()) if cache.exists() else {}
    if package not in known:
        listing = subprocess.run(
            [sys.executable, "-m", "pip", "index", "versions", package],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        line = next((x for x in listing.stdout.splitlines() if "versions:" in x), "")
        found = []
        for text in line.split(":", 1)[-1].split(","):
            try:
                version = Version(text.strip())
            except InvalidVersion:
                continue
            if not version.is_prerelease and not version.is_devrelease:
                found.append(version)
        known[package] = [str(v) for v in sorted(found)]
        cache.write_text(json.dumps(known, indent=1))
    return known[package]


def neighbours(specs: set[str], count: int) -> set[str]:
    """The `count` releases before and after each needed release, of the same package."""
    extra: set[str] = set()
    for spec in sorted(specs):
        package, version = spec.split("==")
        if count <= 0 or package in NO_NEIGHBOURS:
            continue
        listed = releases(package)
        matching = [i for i, v in enumerate(listed) if Version(v) == Version(version)]
        if not matching:
            continue
        at = matching[0]
        for other in listed[max(0, at - count) : at] + listed[at + 1 : at + 1 + count]:
            extra.add(f"{package}=={other}")
    return extra - specs


def index_all(store: Store, needed: set[str], extra: set[str]) -> dict[str, dict[str, bytes]]:
    """Index every release into the store; the sources of the needed ones, for grep."""
    sources: dict[str, dict[str, bytes]] = {}
    for spec in sorted(needed | extra):
        try:
            source = open_source(spec)
            report = index_source(source, store)
        except ErrdexError as error:
            print(f"{spec}: cannot index ({error})", file=sys.stderr)
            continue
        if report.sites:
            print(f"indexed {spec}: {report.sites} sites", file=sys.stderr)
        if spec in needed:
            sources[spec] = {f.path: f.data for f in source.files()}
    return sources


def grep_rank(trial: Trial, files: dict[str, bytes]) -> int | None:
    for rank, (path, line) in enumerate(grep_hits(trial.text, files), start=1):
        if path == trial.file and trial.line <= line <= trial.end_line:
            return rank
    return None


@dataclass
class Settled:
    """How the first result settled a trial beyond its rank: what `run.py` does not count."""

    listed: int = 0  # the first result shows the site, or lists it among its same-text sites
    shown: int = 0  # of the top-1 hits, the site shown is the user's (file and line)
    said_sure: int = 0  # of the top-1 hits, `confident`
    wrongly_sure: int = 0  # the first result `confident`, yet its shown site is not the user's
    trials: int = 0


SETTLED: dict[tuple[str, str], Settled] = defaultdict(Settled)


def settle(store: Store, trial: Trial, matches: list[Match], rank: int | None) -> None:
    """Count what the first result says of the trial's site and release."""
    tally = SETTLED[(trial.group, trial.form)]
    tally.trials += 1
    if not matches:
        return
    first = matches[0]
    case = {"version": trial.version, "expected": {"file": trial.file, "line": trial.line}}
    end = first.site.site.end_line if first.site is not None else first.line
    at_site = first.file == trial.file and first.line <= trial.line <= end
    if rank == 1 or found_at(store, case, [[ref.id] for ref in first.others]) is not None:
        tally.listed += 1
    if rank == 1:
        tally.shown += at_site
        tally.said_sure += first.confident
    if first.confident and not at_site:
        tally.wrongly_sure += 1


def print_settled() -> None:
    print(
        "\n| set | form | first result lists the site | top-1 hits showing the user's line "
        "| top-1 hits `confident` | `confident` yet another line |\n"
        "| --- | --- | --- | --- | --- | --- |"
    )
    for (group, form), tally in sorted(SETTLED.items()):
        n = tally.trials
        print(
            f"| {group} | {form} | {tally.listed}/{n} = {tally.listed / n:.1%} | {tally.shown} "
            f"| {tally.said_sure} | {tally.wrongly_sure} |"
        )


def evaluate(
    store: Store, trials: list[Trial], sources: dict[str, dict[str, bytes]], verbose: set[str]
) -> dict[tuple[str, str], list[tuple[int | None, int | None]]]:
    """(group, form) -> (errdex rank, grep rank) of each trial."""
    results: dict[tuple[str, str], list[tuple[int | None, int | None]]] = defaultdict(list)
    latencies = []
    for trial in trials:
        if trial.spec not in sources:
            continue  # its release could not be indexed: said above
        started = time.perf_counter()
        try:
            matches = lookup_text(store, trial.text, limit=3).matches
        except ErrdexError:
            matches = []
        latencies.append(time.perf_counter() - started)
        case = {"version": trial.version, "expected": {"file": trial.file, "line": trial.line}}
        rank = found_at(store, case, [error_ids(m) for m in matches])
        settle(store, trial, matches, rank)
        pair = (rank, grep_rank(trial, sources[trial.spec]))
        results[(trial.group, trial.form)].append(pair)
        if trial.group == "suites tuned":
            results[(f"tuned: {trial.package}", trial.form)].append(pair)
        if trial.group in verbose and rank != 1:
            got = [f"{m.project} {m.version} {m.file}:{m.line}" for m in matches]
            print(
                f"MISS {trial.case} [{trial.form}] rank={rank}: want {trial.version} "
                f"{trial.file}:{trial.line} got {got}\n    {trial.text.strip()[-300:]!r}"
            )
    if latencies:
        print(
            f"lookup latency: median {statistics.median(latencies) * 1000:.1f} ms, "
            f"max {max(latencies) * 1000:.1f} ms ({len(latencies)} lookups)"
        )
    return results


def share(ranks: list[int | None], k: int) -> str:
    hits = sum(1 for r in ranks if r is not None and r <= k)
    return f"{hits}/{len(ranks)} = {hits / len(ranks):.1%}" if ranks else "-"


def print_table(results: dict[tuple[str, str], list[tuple[int | None, int | None]]]) -> None:
    """The sets' rows first, then the tuned packages' one by one (the held-out ones stay
    whole: their misses are not for tuning)."""
    forms = ("paste", "message", "last line", "traceback", "printed")
    order = sorted(
        results, key=lambda key: (key[0].startswith("tuned: "), key[0], forms.index(key[1]))
    )
    print(
        "| set | form | cases | errdex top-1 | errdex top-3 | grep top-1 | grep top-3 |\n"
        "| --- | --- | --- | --- | --- | --- | --- |"
    )
    for group, form in order:
        pairs = results[(group, form)]
        errdex = [p[0] for p in pairs]
        grep = [p[1] for p in pairs]
        print(
            f"| {group} | {form} | {len(pairs)} | {share(errdex, 1)} | {share(errdex, 3)} "
            f"| {share(grep, 1)} | {share(grep, 3)} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="the database (default: one under bench/out per mode)")
    parser.add_argument("--packages", nargs="+", help="only the suites cases of these packages")
    parser.add_argument("--verbose", action="store_true", help="print the tuned misses")
    parser.add_argument("--held-out-misses", action="store_true", help="and the held-out ones")
    parser.add_argument(
        "--misses", nargs="+", default=[], metavar="SET",
        help="print the misses of these sets only (issues, live, suites tuned)",
    )  # fmt: skip
    parser.add_argument("--one-catalog", action="store_true", help="every set, one database")
    parser.add_argument("--neighbours", type=int, default=0, help="releases each side, too")
    parser.add_argument("--live-per-package", type=int, default=40, help="as live.py's")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    trials = suite_trials(HERE / "suites", args.packages)
    extra: set[str] = set()
    if args.one_catalog:
        trials = [
            *issue_trials(HERE, "issues"),
            *issue_trials(HERE / "heldout", "issues held-out"),
            *live_trials(args.live_per_package),
            *trials,
        ]
    needed = {t.spec for t in trials}
    if args.one_catalog:
        extra = neighbours(needed, args.neighbours)
    if not trials:
        parser.error("no cases: run suites_harvest.py first")
    verbose = set()
    if args.verbose:
        verbose = {"suites tuned", "issues", "live"}
    if args.held_out_misses:
        verbose.add("suites held-out")
    # The held-out issue cases' misses are never for tuning: only their totals are printed.
    verbose |= set(args.misses) - {"issues held-out", "suites held-out"}
    db = args.db or str(OUT / ("one-catalog.db" if args.one_catalog else "suites.db"))
    store = open_store(db)
    try:
        sources = index_all(store, needed, extra)
        results = evaluate(store, trials, sources, verbose)
    finally:
        store.close()
    print(f"{len(needed)} releases needed by the cases, {len(extra)} more in the catalog")
    print_table(results)
    print_settled()


if __name__ == "__main__":
    main()
