"""What the environment facts cost at extraction, over every file of a wheel.

    python bench/pages/environment_cost.py WHEEL

Times `optional_imports` (on the parsed tree, which extraction has anyway),
`platform_tests` and `value_accessors` (scans of the text) over the wheel's Python
files, beside the time to parse them, and counts what they find. Noisy on a shared
machine: run it a few times.
"""

from __future__ import annotations

import sys
import time

from wheel_source import parse_quietly, python_texts

from errdex.extract.environment import optional_imports, platform_tests, value_accessors


def main(wheel: str) -> None:
    texts = python_texts(wheel)
    parse = optional = platform = accessors = 0.0
    found_optional = found_platform = found_accessors = 0
    for text in texts:
        start = time.perf_counter()
        tree = parse_quietly(text)
        if tree is None:
            continue
        parsed = time.perf_counter()
        found_optional += len(optional_imports(tree))
        scanned = time.perf_counter()
        found_platform += len(platform_tests(text))
        done = time.perf_counter()
        found_accessors += len(value_accessors(text))
        accessed = time.perf_counter()
        parse += parsed - start
        optional += scanned - parsed
        platform += done - scanned
        accessors += accessed - done
    print(f"{len(texts)} files: parse {parse:.2f} s (for scale)")
    print(f"optional_imports {optional:.3f} s, {found_optional} names")
    print(f"platform_tests {platform:.3f} s, {found_platform} functions")
    print(f"value_accessors {accessors:.3f} s, {found_accessors} functions")


if __name__ == "__main__":
    main(sys.argv[1])
