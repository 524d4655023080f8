"""Dump every page of an index (solutions, example fixes, why), one section per error.

    python bench/pages/all_pages.py --db PATH --out FILE [--project NAME]

For counting the pages a change of the page rules changes: run it with the code before and
after, then compare the two files section by section (`--compare OLD NEW` prints the ids of
the pages that differ and how many).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from errdex.explain.build import build_page
from errdex.store import open_store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample import section


def sections(text: str) -> dict[str, str]:
    """The dump's sections by error id (project, version and id of the heading)."""
    found: dict[str, str] = {}
    for part in text.split("\n## ")[1:]:
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
    args = parser.parse_args()
    if args.compare:
        old, new = (sections(p.read_text(encoding="utf-8")) for p in args.compare)
        changed = [k for k in new if old.get(k) != new[k]]
        for key in changed:
            print(key)
        print(f"{len(changed)} of {len(new)} pages differ", file=sys.stderr)
        return
    if not args.db or not args.out:
        parser.error("--db and --out, or --compare")
    store = open_store(args.db)
    parts = []
    try:
        sites = store.list_sites(project=args.project) if args.project else store.list_sites()
        seen: dict[tuple[str, str], None] = {}
        for stored in sites:
            seen.setdefault((stored.id, stored.version), None)
        for n, (error_id, version) in enumerate(seen, 1):
            parts.append(section(n, build_page(store, error_id, version, use_model=False)))
    finally:
        store.close()
    args.out.write_text("\n".join(parts), encoding="utf-8")
    print(f"{len(parts)} pages → {args.out}")


if __name__ == "__main__":
    main()
