"""Dump the pages of every vllm 0.33.0 error (or of the error ids listed in a file), in the
form of `sample.py`, to diff two indexes page by page.

    python bench/pages/dump_pages.py --db PATH --out FILE [--ids FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sample import VLLM, error_ids, section

from errdex.explain.build import build_page
from errdex.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--ids", type=Path, help="a file of error ids, one a line")
    args = parser.parse_args()
    store = open_store(args.db)
    try:
        held = error_ids(store, *VLLM)
        if args.ids is not None:
            wanted = set(args.ids.read_text().split())
            held = [i for i in held if i in wanted]
        parts = [f"# vllm pages ({len(held)})\n"]
        for n, error_id in enumerate(held, 1):
            parts.append(section(n, build_page(store, error_id, VLLM[1], use_model=False)))
    finally:
        store.close()
    args.out.write_text("\n".join(parts), encoding="utf-8")
    print(f"{len(held)} pages → {args.out}")


if __name__ == "__main__":
    main()
