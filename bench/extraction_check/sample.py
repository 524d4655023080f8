"""Sample 100 error sites of vllm 0.33.0 from an errdex database for a hand check.

Usage: python bench/extraction_check/sample.py DB > sample.jsonl

All sites of project vllm version 0.33.0 are sorted by (file, line); the sample is
stratified so that every kind present appears at least 3 times when it has that many
sites: first 3 sites of each kind are drawn (with the seeded RNG), then the remaining
slots are filled by a seeded random sample of the rest.
"""

from __future__ import annotations

import json
import random
import sys

from errdex.store import open_store

SEED = 20261130  # the first check; the second used --seed 20261201, the third 20261202
N = 100
MIN_PER_KIND = 3
KINDS = ("raise", "reraise", "assert", "log", "warn", "helper", "exit")


def cond(c):
    return {"statement": c.statement, "kind": str(c.kind), "line": c.line}


def main(db: str, seed: int = SEED) -> None:
    store = open_store(db)
    sites = store.list_sites(project="vllm", version="0.33.0")
    sites.sort(key=lambda s: (s.file, s.site.line, s.id))
    rng = random.Random(seed)

    by_kind: dict[str, list[int]] = {}
    for i, s in enumerate(sites):
        by_kind.setdefault(str(s.site.kind), []).append(i)

    chosen: list[int] = []
    for kind in KINDS:
        idx = by_kind.get(kind, [])
        if idx:
            chosen.extend(rng.sample(idx, min(MIN_PER_KIND, len(idx))))
    taken = set(chosen)
    rest = [i for i in range(len(sites)) if i not in taken]
    chosen.extend(rng.sample(rest, N - len(chosen)))
    chosen.sort()

    counts: dict[str, int] = {}
    for n, i in enumerate(chosen, 1):
        s = sites[i]
        site = s.site
        counts[str(site.kind)] = counts.get(str(site.kind), 0) + 1
        rec = {
            "n": n,
            "id": s.id,
            "kind": str(site.kind),
            "exception": site.exception,
            "exception_qualname": s.exception.qualname if s.exception else None,
            "level": site.level,
            "file": s.file,
            "line": site.line,
            "end_line": site.end_line,
            "function": site.function,
            "template": site.message.text if site.message is not None else None,
            "conditions": [cond(c) for c in site.conditions],
            "bindings": [
                {"name": b.name, "value": b.value, "line": b.line, "origin": b.origin}
                for b in site.bindings
            ],
            "variants": [
                {
                    "reason": v.reason.text,
                    "line": v.line,
                    "function": v.function,
                    "file": v.file,
                    "conditions": [cond(c) for c in v.conditions],
                }
                for v in site.variants
            ],
        }
        print(json.dumps(rec, ensure_ascii=False))
    print(
        json.dumps(
            {
                "total_sites": len(sites),
                "population": {k: len(v) for k, v in by_kind.items()},
                "sample": counts,
            }
        ),
        file=sys.stderr,
    )
    store.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[3]) if sys.argv[2:3] == ["--seed"] else SEED)
