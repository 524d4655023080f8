"""What the defaults and the constructor values cost, over every file of a wheel.

    python bench/pages/behind_cost.py [WHEEL]

Extracts every Python file of the wheel (vllm 0.33.0 from the download cache by default)
as indexing does, timing the two readings this work adds: the defaults of the inputs a
condition reads (`_FileReader._defaults`) and what a constructor copies into `self.X`
from another object (`_FileReader._init_values`, with the count of each class's `self.X`
assignments it reads once per class). Then links the version and times the knobs found
through those values (`KnobIndex._through_init`). Counts what each finds. Single process;
noisy on a shared machine: run it a few times.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wheel_source import extracted

from errdex.extract import reading
from errdex.link import link_version
from errdex.link.knobs import KnobIndex

DEFAULT = Path.home() / ".cache/errdex/downloads/vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl"


def _timed(owner: Any, name: str, spent: list[float]) -> None:
    """Replace `owner.name` by a wrapper adding its time and its results' count to `spent`."""
    original: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        found = original(*args, **kwargs)
        spent[0] += time.perf_counter() - start
        spent[1] += len(found) if found is not None else 0
        return found

    setattr(owner, name, wrapper)


def main(wheel: str) -> None:
    defaults = [0.0, 0]
    values = [0.0, 0]
    through = [0.0, 0]
    _timed(reading._FileReader, "_defaults", defaults)
    _timed(reading._FileReader, "_init_values", values)
    _timed(KnobIndex, "_through_init", through)
    files = extracted(wheel)
    print(f"defaults {defaults[0]:.3f} s, {defaults[1]} defaults on site readings")
    print(f"constructor values {values[0]:.3f} s, {values[1]} on site readings")
    start = time.perf_counter()
    linked = link_version("vllm", files)
    done = time.perf_counter()
    knobs = sum(1 for s in linked for k in s.knobs if k.via and "__init__`)" in k.via)
    print(f"link {done - start:.1f} s (for scale)")
    print(f"through constructor values {through[0]:.3f} s; {knobs} knobs on sites")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(DEFAULT))
