"""The cost per page of the rules for raises under `except` (`explain/try_failure.py`,
`explain/failed_call.py`; with `--inner`, `explain/inner_raises.py` alone): their calls
timed inside `build_page`, in one process.

    python bench/pages/except_cost.py --db PATH [--every 40] [--inner]

Builds one error page in `every` (the ids `all_pages.py --every` draws) and prints the
p50/p99 of the whole build and of the time spent in these rules on each page, in ms.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable
from typing import Any

from errdex.explain import build, rules, solutions
from errdex.store import open_store

_TIMED = (
    (solutions, "no_way_out_of_try"),
    (solutions, "failed_call_solutions"),
    (rules, "no_way_out_of_try"),
    (rules, "try_failure_sentences"),
    (rules, "wrapped_sentence"),
)
_INNER = (
    (build, "inner_raises"),
    (rules, "inner_sentence"),
    (solutions, "inner_solution"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--every", type=int, default=40)
    parser.add_argument("--inner", action="store_true", help="time inner_raises.py alone")
    args = parser.parse_args()
    spent = [0.0]

    def timed(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def run(*a: Any, **k: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*a, **k)
            finally:
                spent[0] += (time.perf_counter() - started) * 1000

        return run

    for module, name in _INNER if args.inner else _TIMED:
        setattr(module, name, timed(getattr(module, name)))
    whole: list[float] = []
    ours: list[float] = []
    with open_store(args.db) as store:
        ids = sorted({s.id for s in store.list_sites() if int(s.id[:8], 16) % args.every == 0})
        for error_id in ids:
            spent[0] = 0.0
            started = time.perf_counter()
            build.build_page(store, error_id)
            whole.append((time.perf_counter() - started) * 1000)
            ours.append(spent[0])
    print(f"{len(ids)} pages")
    for label, values in (("build_page", whole), ("except rules", ours)):
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"{label:12} p50 {statistics.median(values):6.3f} ms  p99 {p99:6.3f} ms")


if __name__ == "__main__":
    main()
