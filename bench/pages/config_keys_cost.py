"""Cost of reading a configuration class's keys (`extract.definitions._config_keys`) on one
wheel: the time of that call on every class named `...Config`, beside the time to parse the
files that hold one (the parse is extraction's anyway), and what it finds.

    python bench/pages/config_keys_cost.py [WHEEL]
"""

from __future__ import annotations

import ast
import sys
import time

from wheel_source import parse_quietly, python_texts

from errdex.extract.definitions import _CONFIG_CLASS, _config_keys

WHEEL = "vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl"


def main() -> None:
    texts = [t for t in python_texts(sys.argv[1] if len(sys.argv) > 1 else WHEEL) if "Config" in t]
    parse = keys_time = 0.0
    classes = keys = 0
    for text in texts:
        start = time.perf_counter()
        tree = parse_quietly(text)
        parse += time.perf_counter() - start
        if tree is None:
            continue
        found = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.ClassDef) and _CONFIG_CLASS.search(n.name)
        ]
        start = time.perf_counter()
        for node in found:
            keys += len(_config_keys(node))
        keys_time += time.perf_counter() - start
        classes += len(found)
    print(f"{len(texts)} files naming Config: parse {parse:.2f} s")
    print(f"{classes} configuration classes, {keys} keys: _config_keys {keys_time * 1000:.1f} ms")


if __name__ == "__main__":
    main()
