"""What the example-fix and model-prose facts cost at index time, on one wheel.

    python bench/pages/fixes_cost.py [WHEEL]   (default: vllm 0.33.0 from the download cache)

Prints the seconds of each new step, measured on its own (best of three): the scan for
subcommands, positionals and flag declarations (extraction; only files that call argparse
do any work), the walk from each flag up to its command line (linking), the version's
defined names (kept for checking a model's prose), and what the store keeps for them.
"""

from __future__ import annotations

import ast
import sys
import time
from collections.abc import Callable
from pathlib import Path

from errdex.extract import extract_file
from errdex.extract.commands import scan_commands
from errdex.facts import ClassFact, FileFacts
from errdex.indexing.cache import cache_dir
from errdex.link.callers import CallerIndex
from errdex.link.commands import CommandIndex
from errdex.link.names import version_names
from errdex.link.resolve import Namespace
from errdex.sources.archive import ArchiveSource
from errdex.store.contents import pack_names

WHEEL = "vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl"


def best_of(run: Callable[[], object], times: int = 3) -> float:
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        spent.append(time.perf_counter() - started)
    return min(spent)


def defs_of(text: str) -> tuple[dict[int, tuple[str, str | None]], list[ClassFact]]:
    """The `def` lines with their qualnames and the classes, as the walker gives them."""
    defs: dict[int, tuple[str, str | None]] = {}
    classes: list[ClassFact] = []

    def visit(node: ast.AST, prefix: str, owner: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                defs[child.lineno] = (prefix + child.name, owner)
                visit(child, f"{prefix}{child.name}.<locals>.", None)
            elif isinstance(child, ast.ClassDef):
                name = prefix + child.name
                classes.append(ClassFact(name=child.name, qualname=name, line=child.lineno))
                visit(child, name + ".", name)

    visit(ast.parse(text), "", None)
    return defs, classes


def main() -> None:
    wheel = Path(sys.argv[1]) if len(sys.argv) > 1 else cache_dir() / "downloads" / WHEEL
    source = ArchiveSource(wheel)
    items = [(f.path, f.data) for f in source.files()]
    gated = []
    for _, data in items:
        text = data.decode("utf-8", "replace")
        if "add_argument(" in text or ".add_parser(" in text:
            defs, classes = defs_of(text)
            gated.append((text, defs, classes))
    scan = best_of(lambda: [scan_commands(t, d, c, []) for t, d, c in gated])
    print(f"files: {len(items)}; calling argparse: {len(gated)}")
    print(f"extract: command facts scan {scan:.3f} s")

    facts: list[FileFacts] = [extract_file(path, data) for path, data in items]
    names = Namespace(facts)
    callers = CallerIndex(facts, names)

    def commands() -> None:
        index = CommandIndex(facts, callers, source.info.entry_points)
        for fact in facts:
            for flag in fact.flags:
                index.command(flag.flag)
        index.main_command()

    print(f"link: command lines of every flag {best_of(commands):.3f} s")
    index = CommandIndex(facts, callers, source.info.entry_points)
    print(f"  main command: {index.main_command()}")
    defined = version_names(facts)
    print(f"names: {best_of(lambda: version_names(facts)):.3f} s for {len(defined)} names")
    print(f"store: defined names {len(pack_names(defined))} bytes packed")
    print(f"store: console scripts {source.info.entry_points}")


if __name__ == "__main__":
    main()
