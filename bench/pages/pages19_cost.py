"""Per-page cost of the session-19 rules (`state_gated`, `accepted_keywords`,
`callback_result`): every page of one error id in N built with the rules and without them,
alternated in one process, and the rules' own calls timed (summed per page).

    python bench/pages/pages19_cost.py --db PATH [--every 40]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from errdex.explain import solutions
from errdex.explain.build import build_page
from errdex.store import open_store

_RULES = ("state_gated", "accepted_keywords_solution", "callback_result_solution")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--every", type=int, default=40)
    args = parser.parse_args()
    store = open_store(args.db)
    real = {name: getattr(solutions, name) for name in _RULES}
    spent = [0.0]

    def timed(rule: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any) -> Any:
            start = time.perf_counter()
            found = rule(*a)
            spent[0] += time.perf_counter() - start
            return found

        return run

    off = {
        "state_gated": lambda kept, *_: kept,
        "accepted_keywords_solution": lambda *_: None,
        "callback_result_solution": lambda *_: None,
    }
    on = {name: timed(rule) for name, rule in real.items()}
    pages = {
        (s.id, s.version): None for s in store.list_sites() if int(s.id[:8], 16) % args.every == 0
    }
    before: list[float] = []
    after: list[float] = []
    own: list[float] = []
    for error_id, version in pages:
        for rules, out in ((off, before), (on, after)):
            for name, rule in rules.items():
                setattr(solutions, name, rule)
            spent[0] = 0.0
            start = time.perf_counter()
            build_page(store, error_id, version, use_model=False)
            out.append(time.perf_counter() - start)
        own.append(spent[0])
    for name, rule in real.items():
        setattr(solutions, name, rule)
    ms = 1000.0
    print(f"{len(pages)} pages")
    print(
        f"page p50 without {statistics.median(before) * ms:.2f} ms, with "
        f"{statistics.median(after) * ms:.2f} ms"
    )
    cuts = statistics.quantiles(own, n=100)
    print(
        f"the rules per page: p50 {statistics.median(own) * ms:.4f} ms, p90 "
        f"{cuts[89] * ms:.4f} ms, p99 {cuts[98] * ms:.4f} ms, max {max(own) * ms:.3f} ms"
    )


if __name__ == "__main__":
    main()
