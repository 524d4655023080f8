"""Per-page cost of `entry_args` (the public call an internal argument is reached by):
every page of one error id in N built with the rule and without it, alternated in one
process, and the rule's own calls timed.

    python bench/pages/entry_args_cost.py --db PATH [--every 40]
"""

from __future__ import annotations

import argparse
import statistics
import time

from errdex.explain import build, entry_args
from errdex.explain.build import build_page
from errdex.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--every", type=int, default=40)
    args = parser.parse_args()
    store = open_store(args.db)
    real = entry_args.entry_arguments
    own: list[float] = []

    def timed(*a: object) -> object:
        start = time.perf_counter()
        found = real(*a)  # type: ignore[arg-type]
        own.append(time.perf_counter() - start)
        return found

    pages = {
        (s.id, s.version): None for s in store.list_sites() if int(s.id[:8], 16) % args.every == 0
    }
    before: list[float] = []
    after: list[float] = []
    for error_id, version in pages:
        for label, rule in (("before", lambda *a: {}), ("after", timed)):
            build.entry_arguments = rule  # type: ignore[assignment]
            start = time.perf_counter()
            build_page(store, error_id, version, use_model=False)
            (before if label == "before" else after).append(time.perf_counter() - start)
    build.entry_arguments = real
    ms = 1000.0
    print(f"{len(pages)} pages")
    print(
        f"page p50 before {statistics.median(before) * ms:.2f} ms, after "
        f"{statistics.median(after) * ms:.2f} ms"
    )
    cuts = statistics.quantiles(own, n=100)
    print(
        f"entry_arguments p50 {statistics.median(own) * ms:.3f} ms, p90 {cuts[89] * ms:.3f} "
        f"ms, p99 {cuts[98] * ms:.3f} ms, max {max(own) * ms:.2f} ms"
    )


if __name__ == "__main__":
    main()
