"""Count and show the pages whose solutions come from the user's own code and input.

    python bench/pages/inputs_scan.py --db PATH [--project vllm] [--show 20] [--seed 1]

Builds the page of every site where those rules may apply (a method subclasses define
again, a class method that sets an attribute a condition tests, a key tested in a mapping,
a private method's check of `self.X`), counts the solutions by kind of sentence, and prints
a random few for a person to judge against the source.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter

from errdex.explain.build import build_page
from errdex.store import open_store
from errdex.store.base import StoredSite

# The sentences of these rules, by their opening words.
KINDS = {
    "define in your subclass": re.compile(r"^Define `"),
    "use a subclass": re.compile(r"^Use a subclass"),
    "call a setter": re.compile(r"^Call `"),
    "keys of a mapping": re.compile(r"^(?:Make .* contain |Leave `)"),
    "a limit past a count": re.compile(r"^Pass the argument .* at least `len\("),
    "what is missing": re.compile(r"^(?:Provide|Give|Specify|Set) .*as the message says"),
}
_KEY = re.compile(r"'\w+' (?:not )?in \w")


def candidate(site: StoredSite) -> bool:
    texts = " ".join(c.text for c in site.site.conditions)
    reading = site.reading
    return (
        site.overrides is not None
        or (reading is not None and bool(reading.setters))
        or _KEY.search(texts) is not None
        or ("self." in texts and site.site.class_name is not None)
        or (site.site.message is not None and "provided" in site.site.message.text)
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--project", default="vllm")
    parser.add_argument("--show", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    shown: list[tuple[str, StoredSite, str]] = []
    with open_store(args.db) as store:
        sites = [s for s in store.list_sites(project=args.project) if candidate(s)]
        for site in sites:
            for solution in build_page(store, site.id).solutions:
                kind = next((k for k, p in KINDS.items() if p.search(solution.text)), None)
                if kind is not None:
                    counts[kind] += 1
                    shown.append((kind, site, solution.text))
                    break
    print(f"{len(sites)} candidate sites of {args.project}; pages with such a solution:")
    for kind, count in counts.most_common():
        print(f"  {kind}: {count}")
    random.seed(args.seed)
    for kind, site, text in random.sample(shown, min(args.show, len(shown))):
        print(f"- [{kind}] {site.file}:{site.site.line} {site.site.function}\n    {text[:400]}")


if __name__ == "__main__":
    main()
