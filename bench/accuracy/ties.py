"""Which of several sites raising the very same text a paste came from: each signal's effect.

    python bench/accuracy/ties.py [--db PATH] [--live-db PATH]

Looks up the tuned test-suite cases' message lines and printed output (`suites/`, the held-out
packages left out) and the live set's last lines (`live.py`'s sample) in the databases their
runs built (`suites_run.py`, `live.py`: run those first), keeps each lookup whose first
result is a text raised at several sites of one release (`raised_at`) with the raising site
among them, and counts where the truth lands when those sites are put in each order: the
one lookup ships (`match/same_text.py`), file order, and each signal put first or last in
it. "Best fixed order" puts the site most cases of its group came from first: what no
order of the sites can beat, since a group's cases are each one site's.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from errdex.match import lookup_text
from errdex.match.one_result import site_ref
from errdex.match.same_text import SiteRef, likelihood
from errdex.store import open_store
from errdex.store.base import StoredSite

sys.path.insert(0, str(Path(__file__).parent))
from suites_run import HERE, OUT, Trial, live_trials, suite_trials


@dataclass(frozen=True)
class Site:
    ref: SiteRef
    stored: StoredSite


@dataclass(frozen=True)
class Group:
    sites: list[Site]  # as lookup ranked them
    truth: int  # the index of the raising site


Key = Callable[[Site], tuple[object, ...]]


def groups(db: str, trials: list[Trial]) -> list[Group]:
    store = open_store(db)
    found = []
    try:
        for trial in trials:
            matches = lookup_text(store, trial.text, limit=3).matches
            if not matches or matches[0].raised_at < 2 or matches[0].site is None:
                continue
            first = matches[0]
            sites = []
            for ref in [site_ref(first), *first.others]:
                rows = [
                    s
                    for s in store.get_error(ref.id)
                    if (s.version, s.file) == (ref.version, ref.file)
                ]
                if rows:
                    sites.append(Site(ref, rows[0]))
            truth = [i for i, s in enumerate(sites) if _spans(s, trial)]
            if truth:
                found.append(Group(sites, truth[0]))
    finally:
        store.close()
    return found


def _spans(site: Site, trial: Trial) -> bool:
    span = site.stored.site
    return site.ref.file == trial.file and span.line <= trial.line <= span.end_line


def _count(kinds: set[str]) -> Callable[[Site], int]:
    return lambda s: sum(1 for c in s.stored.site.conditions if c.kind in kinds)


SIGNALS: dict[str, Callable[[Site], object]] = {
    "a public import path (`public`)": lambda s: s.stored.public is None,
    "a public function name": lambda s: s.ref.function.split(".")[-1].startswith("_"),
    "more callers in the package": lambda s: -len(s.stored.callers),
    "a caller in the package": lambda s: not s.stored.callers,
    "the more specific class (more bases)": lambda s: (
        -len(s.stored.exception.bases) if s.stored.exception else 0
    ),
    "fewer `except`s around it": _count({"except"}),
    "fewer early exits before it": _count({"early_exit"}),
    "fewer if/elif/else conditions": _count({"if", "elif", "else"}),
    "fewer loops around it": _count({"loop"}),
    "no `from` cause": lambda s: s.stored.site.cause is not None,
    "a method no subclass overrides": lambda s: s.stored.overrides is not None,
    "more tests expecting it": lambda s: -len(s.stored.tests),
}


def placed(key: Key, groups: list[Group]) -> tuple[int, int]:
    first = top3 = 0
    for group in groups:
        order = sorted(range(len(group.sites)), key=lambda i: key(group.sites[i]))
        at = order.index(group.truth)
        first += at == 0
        top3 += at < 3
    return first, top3


def best_fixed(groups: list[Group]) -> int:
    hits: Counter[str] = Counter(g.sites[g.truth].ref.id for g in groups)
    seen: dict[frozenset[str], int] = {}
    for group in groups:
        ids = frozenset(s.ref.id for s in group.sites)
        seen[ids] = max(hits[s.ref.id] for s in group.sites)
    return sum(seen.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(OUT / "suites.db"), help="suites_run.py's")
    parser.add_argument("--live-db", default=str(OUT / "live" / "live.db"), help="live.py's")
    args = parser.parse_args()
    suites = [
        t for t in suite_trials(HERE / "suites", None)
        if t.group == "suites tuned" and t.form in ("message", "printed")
    ]  # fmt: skip
    live = [t for t in live_trials(40) if t.form == "last line"]
    sets = {"suites": groups(args.db, suites), "live": groups(args.live_db, live)}

    def shipped(s: Site) -> tuple[object, ...]:
        return (likelihood(s.ref), s.ref.file, s.ref.line)

    orders: dict[str, Key] = {
        "shipped (same_text.likelihood)": shipped,
        "file order alone": lambda s: (s.ref.file, s.ref.line),
    }
    for name, signal in SIGNALS.items():
        orders[f"{name}, before the rest"] = lambda s, f=signal: (f(s), *shipped(s))
        orders[f"{name}, after the rest"] = lambda s, f=signal: (
            likelihood(s.ref),
            f(s),
            s.ref.file,
        )
    sizes = " | ".join(f"{k} ({len(v)}): top-1, top-3" for k, v in sets.items())
    print(f"| order (each signal: what comes first) | {sizes} |\n| --- | --- | --- |")
    for name, key in orders.items():
        cells = " | ".join("{}, {}".format(*placed(key, g)) for g in sets.values())
        print(f"| {name} | {cells} |")
    print("| best fixed order | " + " | ".join(str(best_fixed(g)) for g in sets.values()) + " |")


if __name__ == "__main__":
    main()
