"""Dump the pages a change of the page rules can reach, one section per error, as
`all_pages.py` does for every page: those of the sites the change reads (a kind of site, a
kind of knob, a kind of handler), the others being left as they are by construction.

    python bench/pages/candidates.py --db PATH --out FILE --only reraise,assert,knob,typeerror
    python bench/pages/candidates.py --db PATH --out FILE --every 10

Compare two dumps with `all_pages.py --compare OLD NEW`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from errdex.explain.build import build_page
from errdex.facts import ConditionKind, KnobKind, SiteKind
from errdex.store import open_store
from errdex.store.base import StoredSite

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample import section

_SETTINGS = (KnobKind.FLAG, KnobKind.ENV)


def _exported_private(stored: StoredSite) -> bool:
    """A site of a private module that the package re-exports."""
    return bool(stored.public) and any(p.startswith("_") for p in stored.module.split("."))


def _type_error(text: str, kind: ConditionKind) -> bool:
    return kind == ConditionKind.EXCEPT and "TypeError" in text


def _drawn(error_id: str, every: int) -> bool:
    """One error id in `every`, by its own hex digits (the same on every run)."""
    return int(error_id[:8], 16) % every == 0


def _wanted(stored: StoredSite, kinds: set[str]) -> bool:
    site = stored.site
    return (
        ("reraise" in kinds and site.kind == SiteKind.RERAISE)
        or ("assert" in kinds and site.kind == SiteKind.ASSERT and _exported_private(stored))
        or ("knob" in kinds and any(k.kind in _SETTINGS for k in stored.knobs))
        or ("typeerror" in kinds and any(_type_error(c.text, c.kind) for c in site.conditions))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--only", default="", help="reraise,assert,knob,typeerror")
    parser.add_argument("--every", type=int, default=0, help="or 1 error id in N, any kind")
    args = parser.parse_args()
    kinds = set(args.only.split(","))
    store = open_store(args.db)
    parts = []
    try:
        seen: dict[tuple[str, str], None] = {}
        for stored in store.list_sites():
            if _wanted(stored, kinds) or (args.every and _drawn(stored.id, args.every)):
                seen.setdefault((stored.id, stored.version), None)
        for n, (error_id, version) in enumerate(seen, 1):
            parts.append(section(n, build_page(store, error_id, version, use_model=False)))
    finally:
        store.close()
    args.out.write_text("\n".join(parts), encoding="utf-8")
    print(f"{len(parts)} pages → {args.out}")


if __name__ == "__main__":
    main()
