"""What the example-fix and Why facts cost, over every file of a wheel and in a database.

    python bench/pages/fixform_cost.py WHEEL [DB]

Times, over the wheel's Python files, what extraction adds for them: the docstrings and
comments beside module constants and class fields (`attribute_docs`, on the tree
extraction parses anyway), the comment above each environment read (`comment_above`), and
the scan for a config file of flags (`config_file_flags`); beside the time to parse the
files, for scale. With DB (an index holding the wheel's version), counts what linking kept
of them on the version's sites: knobs with a doc, constant bindings with a doc, sites with
a public path, knobs with a config file. Noisy on a shared machine: run it a few times.
"""

from __future__ import annotations

import ast
import sys
import time

from wheel_source import parse_quietly, python_texts

from errdex.extract.config_files import config_file_flags
from errdex.extract.docs import attribute_docs, comment_above
from errdex.extract.knobs import scan_settings
from errdex.store import open_store


def extraction(wheel: str) -> None:
    texts = python_texts(wheel)
    parse = docs = env = config = 0.0
    found_docs = found_env = found_config = 0
    for text in texts:
        start = time.perf_counter()
        tree = parse_quietly(text)
        if tree is None:
            continue
        parsed = time.perf_counter()
        lines = text.split("\n")
        found_docs += len(attribute_docs(tree.body, lines))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found_docs += len(attribute_docs(node.body, lines))
        documented = time.perf_counter()
        reads, _ = scan_settings(text)
        read_at = time.perf_counter()
        found_env += sum(1 for r in reads if comment_above(lines, r.line))
        commented = time.perf_counter()
        found_config += len(config_file_flags(text))
        done = time.perf_counter()
        parse += parsed - start
        docs += documented - parsed
        env += commented - read_at
        config += done - commented
    print(f"{len(texts)} files: parse {parse:.2f} s (for scale)")
    print(f"attribute docs {docs:.3f} s, {found_docs} names documented")
    print(f"comments above env reads {env:.3f} s, {found_env} reads with one")
    print(f"config-file scan {config:.3f} s, {found_config} config flags")


def stored(db: str, project: str = "vllm") -> None:
    store = open_store(db)
    try:
        sites = store.list_sites(project=project)
    finally:
        store.close()
    knobs = [k for s in sites for k in s.knobs]
    print(
        f"{len(sites)} sites: {sum(1 for s in sites if s.public)} with a public path; "
        f"{sum(1 for k in knobs if k.doc)} of {len(knobs)} knobs with a doc, "
        f"{sum(1 for k in knobs if k.config)} with a config file; "
        f"{sum(1 for s in sites for b in s.site.bindings if b.doc)} constant bindings with a doc"
    )


if __name__ == "__main__":
    extraction(sys.argv[1])
    if len(sys.argv) > 2:
        stored(sys.argv[2])
