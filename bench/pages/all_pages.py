"""Dump every page of an index (solutions, example fixes, why), one section per error.

    python bench/pages/all_pages.py --db PATH --out FILE [--project NAME]
    python bench/pages/all_pages.py --db PATH --out FILE --only reraise,knob,request
    python bench/pages/all_pages.py --db PATH --out FILE --every 10
    python bench/pages/all_pages.py --db PATH --out FILE --ids FILE
    python bench/pages/all_pages.py --compare OLD NEW [--draw N --seed S] > IDS

`--only` keeps the pages a change of the rules can reach (a kind of site, of knob, of
handler: the others stay as they are by construction); `--every N` one error id in N;
`--ids FILE` the ids listed (the same pages from another tree).

For counting the pages a change of the page rules changes: run it with the code before and
after, then compare the two files section by section (`--compare OLD NEW` prints the ids of
the pages that differ and how many). With `--draw N` it prints N of them, drawn by the hash of
`--seed` and each page's key as `sample.py` draws: pages a change reached, for judging before
and after (`--ids` on each index) beside the random draw, which misses most of them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from errdex.facts import ConditionKind, KnobKind, SiteKind
from errdex.store import open_store
from errdex.store.base import StoredSite

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample import draw, write_pages

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
        # a field of a request body behind a condition (`getattr`: a tree before the field)
        or ("request" in kinds and bool(getattr(stored, "requests", ())))
    )


def sections(text: str) -> dict[str, str]:
    """The dump's sections by error id (project, version and id of the heading)."""
    found: dict[str, str] = {}
    for part in ("\n" + text).split("\n## ")[1:]:  # the first heading opens the file
        head = part.split("\n", 1)[0]
        key = head.split(". ", 1)[1] if ". " in head else head
        found[key] = part
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--project")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    parser.add_argument("--only", default="", help="reraise,assert,knob,typeerror,request")
    parser.add_argument("--every", type=int, default=0, help="one error id in N")
    parser.add_argument("--ids", type=Path, help="a file of error ids, one a line: only those")
    parser.add_argument("--draw", type=int, default=0, help="with --compare: N of the changed")
    parser.add_argument("--seed", type=int, default=0, help="the seed of --draw")
    args = parser.parse_args()
    if args.compare:
        old, new = (sections(p.read_text(encoding="utf-8")) for p in args.compare)
        changed = [k for k in new if old.get(k) != new[k]]
        print(f"{len(changed)} of {len(new)} pages differ", file=sys.stderr)
        for key in draw(changed, args.draw, args.seed) if args.draw else changed:
            print(key.rsplit(" ", 1)[-1] if args.draw else key)
        return
    if not args.db or not args.out:
        parser.error("--db and --out, or --compare")
    store = open_store(args.db)
    try:
        sites = store.list_sites(project=args.project) if args.project else store.list_sites()
        seen: dict[tuple[str, str], None] = {}
        kinds = set(args.only.split(",")) if args.only else set()
        listed = set(args.ids.read_text().split()) if args.ids else None
        for stored in sites:
            if listed is not None:
                if stored.id in listed:
                    seen.setdefault((stored.id, stored.version), None)
                continue
            drawn = args.every and _drawn(stored.id, args.every)
            if (not kinds and not args.every) or _wanted(stored, kinds) or drawn:
                seen.setdefault((stored.id, stored.version), None)
        write_pages(store, list(seen), args.out)
    finally:
        store.close()


if __name__ == "__main__":
    main()
