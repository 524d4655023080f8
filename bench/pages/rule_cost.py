"""Per-page cost of page rules: the named functions timed inside `build_page`, in one process.

    python bench/pages/rule_cost.py --db PATH --rule MODULE:NAME [--rule ...] [--every 40]
    python bench/pages/rule_cost.py --db PATH --rule MODULE:NAME --count 300 [--seed 14]
    python bench/pages/rule_cost.py --db PATH --preset why

A rule is named by the module it is CALLED from and the name it is called by there (a rule
imported with `from x import f` into `errdex.explain.build` is `errdex.explain.build:f`), so
that replacing that name with a timed wrapper times every call the page build makes. Each
page is built once (its function parsed anew, as a cold page is); the summed time of the
rules' calls on that page and the whole build are recorded. Pages: one error id in `every`
(the ids `all_pages.py --every` draws), or `count` ids drawn at random with `seed`.

Prints the page build's p50/p99 and the rules' own p50/p90/p99/max per page, in ms, and on
how many pages the rules ran at all. `--preset` names the rule sets earlier sessions timed.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from errdex.explain.build import build_page
from errdex.store import open_store

_E = "errdex.explain."
# The rule sets earlier sessions measured, each by the session's own script name.
PRESETS = {
    "entry_args": [_E + "build:entry_arguments"],
    "except": [
        _E + "solutions:no_way_out_of_try",
        _E + "solutions:failed_call_solutions",
        _E + "rules:no_way_out_of_try",
        _E + "rules:try_failure_sentences",
        _E + "rules:wrapped_sentence",
    ],
    "except_inner": [
        _E + "build:inner_raises",
        _E + "rules:inner_sentence",
        _E + "solutions:inner_solution",
    ],
    "pages19": [
        _E + "solutions:state_gated",
        _E + "solutions:accepted_keywords_solution",
        _E + "solutions:callback_result_solution",
    ],
    "userargs20": [
        _E + "inputs:declared_keyword",
        _E + "passed_args:counted_solution",
        _E + "table_lookup:_class_table",
    ],
    "why": [_E + "build:why_quotes"],
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def wrap(rules: list[str], spent: list[float]) -> None:
    """Replace each MODULE:NAME by a wrapper adding its time to spent[0]."""
    for rule in rules:
        module_name, _, name = rule.partition(":")
        module = importlib.import_module(module_name)
        function = getattr(module, name)

        @functools.wraps(function)
        def run(*a: Any, __function: Callable[..., Any] = function, **k: Any) -> Any:
            started = time.perf_counter()
            try:
                return __function(*a, **k)
            finally:
                spent[0] += time.perf_counter() - started

        setattr(module, name, run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--rule", action="append", default=[], help="MODULE:NAME, repeatable")
    parser.add_argument("--preset", choices=sorted(PRESETS), action="append", default=[])
    parser.add_argument("--every", type=int, default=40)
    parser.add_argument("--count", type=int, help="random ids instead of one in --every")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rules = args.rule + [r for p in args.preset for r in PRESETS[p]]
    if not rules:
        parser.error("name at least one --rule or --preset")
    spent = [0.0]
    wrap(rules, spent)
    whole: list[float] = []
    own: list[float] = []
    with open_store(args.db) as store:
        pages = sorted({(s.id, s.version) for s in store.list_sites()})
        if args.count:
            pages = random.Random(args.seed).sample(pages, min(args.count, len(pages)))
        else:
            pages = [p for p in pages if int(p[0][:8], 16) % args.every == 0]
        for error_id, version in pages:
            spent[0] = 0.0
            started = time.perf_counter()
            build_page(store, error_id, version, use_model=False)
            whole.append((time.perf_counter() - started) * 1000)
            own.append(spent[0] * 1000)
    print(f"{len(pages)} pages; rules: {', '.join(rules)}")
    print(
        f"build_page p50 {statistics.median(whole):7.3f} ms  p99 {percentile(whole, 0.99):7.3f} ms"
    )
    print(
        f"rules       p50 {statistics.median(own):7.3f} ms  p90 {percentile(own, 0.9):7.3f} ms  "
        f"p99 {percentile(own, 0.99):7.3f} ms  max {max(own):7.3f} ms  "
        f"pages where they ran: {sum(1 for t in own if t > 0)}"
    )


if __name__ == "__main__":
    main()
