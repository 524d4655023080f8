"""Check a static export (`errdex export ... --out DIR`): every page's links resolve.

Walks every HTML file of the export and resolves each `href`/`src` that is not outside
(http, mailto) or a fragment against the file's folder, as a browser opening the folder
from `file://` or a static host would. Prints files, size and the broken links.

    python bench/export_links.py DIR
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINK = re.compile(r'\b(?:href|src)="([^"]*)"')


def check(root: Path) -> tuple[int, int, int, list[tuple[str, str]]]:
    """(files, bytes, links checked, broken (page, link))."""
    files = [p for p in root.rglob("*") if p.is_file()]
    broken: list[tuple[str, str]] = []
    checked = 0
    for page in (p for p in files if p.suffix == ".html"):
        for raw in LINK.findall(page.read_text(errors="replace")):
            link = html.unescape(raw)
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("#"):
                continue
            checked += 1
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file() or not target.is_relative_to(root.resolve()):
                broken.append((str(page.relative_to(root)), link))
    return len(files), sum(p.stat().st_size for p in files), checked, broken


def main() -> None:
    root = Path(sys.argv[1])
    files, size, checked, broken = check(root)
    print(f"{files} files, {size / 1e6:.1f} MB, {checked} links checked, {len(broken)} broken")
    for page, link in broken[:20]:
        print(f"  {page}: {link}")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
