"""What the facts of the user's own code cost, over every file of a wheel.

    python bench/pages/inputs_cost.py [WHEEL]

Extracts every Python file of the wheel (vllm 0.33.0 from the download cache by default)
as indexing does, timing the part that reads what sets the attributes conditions test
(`_FileReader._setters`: the public methods that assign them), then links the version's classes
by their bases and times the defaults subclasses replace (`OverrideIndex`) over every site.
Counts what each finds. Single process; noisy on a shared machine: run it a few times.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from wheel_source import extracted

from errdex.extract import reading
from errdex.link.overrides import OverrideIndex
from errdex.link.resolve import Namespace

DEFAULT = Path.home() / ".cache/errdex/downloads/vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl"


def main(wheel: str) -> None:
    spent = [0.0, 0]
    timed = reading._FileReader._setters

    def setters(*args: Any) -> Any:
        start = time.perf_counter()
        found = timed(*args)
        spent[0] += time.perf_counter() - start
        spent[1] += len(found)
        return found

    reading._FileReader._setters = setters  # type: ignore[method-assign]
    files = extracted(wheel)
    print(f"setters {spent[0]:.3f} s, {spent[1]} setters on site readings")
    start = time.perf_counter()
    names_of = Namespace(files)
    built = time.perf_counter()
    index = OverrideIndex(names_of)
    found = sum(
        1
        for facts in names_of.modules.values()
        for site in facts.sites
        if index.of(site, facts) is not None
    )
    done = time.perf_counter()
    print(f"namespace {built - start:.2f} s (for scale)")
    print(f"overrides {done - built:.3f} s, {found} sites")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(DEFAULT))
