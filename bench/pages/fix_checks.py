"""Count the example fixes each test of `explain/runnable_fix.py` rejects, over an index.

    python bench/pages/fix_checks.py --db PATH [--ids FILE] [--show N]

Builds each page (the ids listed, else every page) and checks every fix the page's rules
draw (each solution's and the page's own) before the check acts on it: prints how many fixes
were checked, how many each test rejects and how many are rewritten, with `--show N` examples
of each to read against the source.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from errdex.explain import build, runnable_fix
from errdex.explain.page import ExampleFix
from errdex.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--ids", type=Path)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    counts: collections.Counter[str] = collections.Counter()
    shown: dict[str, list[str]] = collections.defaultdict(list)
    checked: set[tuple[str, str, str]] = set()
    current = [""]
    fault_of = runnable_fix.fix_fault

    def counted(fix: ExampleFix, facts: runnable_fix.Facts) -> str | None:
        fault = fault_of(fix, facts)
        key = (current[0], fix.before, fix.after)
        if key not in checked:  # a fix checked twice (the page's and its solution's) once
            checked.add(key)
            counts["checked"] += 1
            if fault is not None:
                counts[fault] += 1
                shown[fault].append(f"{current[0]}: {fix.before!r} -> {fix.after!r}")
        return fault

    runnable_fix.fix_fault = counted  # type: ignore[assignment]
    store = open_store(args.db)
    try:
        listed = set(args.ids.read_text().split()) if args.ids else None
        seen = set()
        for stored in store.list_sites():
            if (listed is not None and stored.id not in listed) or stored.id in seen:
                continue
            seen.add(stored.id)
            current[0] = f"{stored.file}:{stored.site.line}"
            build.build_page(store, stored.id)
    finally:
        store.close()
    print(dict(counts))
    for fault, examples in shown.items():
        print(f"== {fault}: {len(examples)}")
        for example in examples[: args.show]:
            print("  ", example)


if __name__ == "__main__":
    main()
