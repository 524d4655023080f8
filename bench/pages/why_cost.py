"""The cost of `Page.why` per page: `why_quotes` timed inside `build_page`, cold.

    python bench/pages/why_cost.py --db PATH [--count 300] [--seed 14]

Builds `count` random error pages in one process (each page once: its function parsed
anew, as a cold page is) and prints the p50/p99 of the whole build and of `why_quotes`
within it, in ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from errdex.explain import build
from errdex.explain.context import Facts
from errdex.explain.page import WhyQuote
from errdex.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    spent: list[float] = []
    quoted = build.why_quotes

    def timed(facts: Facts, meaning: str) -> list[WhyQuote]:
        started = time.perf_counter()
        try:
            return quoted(facts, meaning)
        finally:
            spent.append((time.perf_counter() - started) * 1000)

    build.why_quotes = timed
    with open_store(args.db) as store:
        ids = sorted({s.id for s in store.list_sites()})
        whole: list[float] = []
        for error_id in random.Random(args.seed).sample(ids, args.count):
            started = time.perf_counter()
            build.build_page(store, error_id)
            whole.append((time.perf_counter() - started) * 1000)
    for name, values in (("build_page", whole), ("why_quotes", spent)):
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"{name:11} p50 {statistics.median(values):6.2f} ms  p99 {p99:6.2f} ms")


if __name__ == "__main__":
    main()
