"""The longest functions and largest modules of a source tree, by lines.

    python bench/extraction_check/code_size.py [SRC_DIR] [--top N]

A function's length is its `def` line through its last line (decorators and nested
functions included); a module's is its line count. Reads the files, imports nothing.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("src", type=Path, nargs="?", default=Path("src/errdex"))
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    functions: list[tuple[int, str]] = []
    modules: list[tuple[int, str]] = []
    for path in sorted(args.src.rglob("*.py")):
        text = path.read_text()
        name = str(path.relative_to(args.src))
        modules.append((len(text.splitlines()), name))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                functions.append((length, f"{name}:{node.lineno} {node.name}"))
    for title, rows in (("functions", functions), ("modules", modules)):
        print(f"longest {title}:")
        for lines, where in sorted(rows, reverse=True)[: args.top]:
            print(f"  {lines:5d}  {where}")


if __name__ == "__main__":
    main()
