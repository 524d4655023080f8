"""How many pages of an older release get an upgrade solution, with a few to judge.

    python bench/pages/upgrades_sample.py --db PATH [--project vllm] [--old 0.32.0]
        [--count 300] [--seed 15]

The index must hold the older release and a later one of the same project. Pages of
`--count` error ids of the older release, drawn with `random.Random(seed)`, are built;
the script prints how many carry an upgrade solution, by kind (the check gone, or changed),
and the first few for a person to check against both releases' source.
"""

from __future__ import annotations

import argparse
import random
import time

from errdex.explain.build import build_page
from errdex.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--project", default="vllm")
    parser.add_argument("--old", default="0.32.0")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    with open_store(args.db) as store:
        sites = store.list_sites(project=args.project, version=args.old)
        ids = list(dict.fromkeys(s.id for s in sites))
        chosen = random.Random(args.seed).sample(ids, min(args.count, len(ids)))
        gone: list[str] = []
        changed: list[str] = []
        started = time.perf_counter()
        for error_id in chosen:
            page = build_page(store, error_id, args.old, use_model=False)
            for solution in page.solutions:
                if not solution.text.startswith("Upgrade "):
                    continue
                where = f"{error_id} {page.source.file}:{page.source.line}: {solution.text}"
                (changed if "the check changed" in solution.text else gone).append(where)
        spent = time.perf_counter() - started
    print(f"{len(chosen)} pages of {args.project} {args.old} in {spent:.1f} s")
    print(f"upgrade solutions: {len(gone)} (check gone), {len(changed)} (check changed)")
    for line in [*gone[:10], *changed[:10]]:
        print("-", line[:400])


if __name__ == "__main__":
    main()
