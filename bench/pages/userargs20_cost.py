"""Per-page cost of the session-20 rules on the user's own arguments (`declared_fields`,
`counted_given`, a class-body table in `table_lookup`): every page of one error id in N
built once, with the rules' own calls timed (summed per page, CPU time of this process).

    python bench/pages/userargs20_cost.py --db PATH [--every 40]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from errdex.explain import inputs, passed_args, table_lookup
from errdex.explain.build import build_page
from errdex.store import open_store

# (module the rule is called from, the name it is called by there)
_RULES = (
    (inputs, "declared_keyword"),
    (passed_args, "counted_solution"),
    (table_lookup, "_class_table"),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--every", type=int, default=40)
    args = parser.parse_args()
    store = open_store(args.db)
    spent = [0.0]

    def timed(rule: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any) -> Any:
            start = time.process_time()
            found = rule(*a)
            spent[0] += time.process_time() - start
            return found

        return run

    for module, name in _RULES:
        setattr(module, name, timed(getattr(module, name)))
    pages = {
        (s.id, s.version): None for s in store.list_sites() if int(s.id[:8], 16) % args.every == 0
    }
    own: list[float] = []
    whole: list[float] = []
    for error_id, version in pages:
        spent[0] = 0.0
        start = time.process_time()
        build_page(store, error_id, version, use_model=False)
        whole.append(time.process_time() - start)
        own.append(spent[0])
    ms = [t * 1000 for t in own]
    print(f"{len(pages)} pages; page CPU p50 {statistics.median(whole) * 1000:.2f} ms")
    print(
        f"rules' own CPU a page: p50 {statistics.median(ms):.4f} ms, mean "
        f"{statistics.fmean(ms):.4f} ms, max {max(ms):.2f} ms, pages > 0: "
        f"{sum(1 for t in ms if t > 0)}"
    )


if __name__ == "__main__":
    main()
