"""Count how the pages' why changed between two dumps of `all_pages.py` (or `sample.py`).

    python bench/pages/why_counts.py OLD NEW [--show N]

A dump before `Page.why` carries the tail of "What it means" from "In the code's own
words" as its why (a repeat by construction); after, the quotes. Counts: empty → quotes,
repeat → quotes, repeat → none, empty → empty; and any quote "What it means" still holds.
`--show N` prints N changed pages' ids, seeded, for reading against the source.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from all_pages import sections


def _why(section: str) -> list[str]:
    return [
        line[len("- why: ") :]
        for line in section.split("\n")
        if line.startswith("- why: ") and line != "- why: (none)"
    ]


def _meaning(section: str) -> str:
    for line in section.split("\n"):
        if line.startswith("- what it means: "):
            return line
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    old, new = (sections(p.read_text(encoding="utf-8")) for p in (args.old, args.new))
    counts: Counter[str] = Counter()
    quotes: Counter[int] = Counter()
    changed: list[str] = []
    for key, page in new.items():
        before, after = _why(old.get(key, "")), _why(page)
        kind = ("repeat" if before else "empty") + " -> " + ("quotes" if after else "none")
        counts[kind] += 1
        quotes[len(after)] += 1
        if after:
            changed.append(key)
        meaning = _meaning(page)
        if "In the code's own words" in meaning:
            counts["what it means still quotes"] += 1
        for quote in after:
            text = quote.split("” (", 1)[0].lstrip("“")
            if text and text in meaning:
                counts["quote repeated in what it means"] += 1
    for kind, n in sorted(counts.items()):
        print(f"{kind}: {n}")
    print("quotes per page:", dict(sorted(quotes.items())))
    print(f"pages: {len(new)}")
    if args.show:
        for key in random.Random(args.seed).sample(changed, min(args.show, len(changed))):
            print(key)


if __name__ == "__main__":
    main()
