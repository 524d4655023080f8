"""What the selection facts cost, over every file of a wheel: the scans at extraction and
the linking of each site to the settings that pick its code.

    python bench/pages/selection_cost.py [WHEEL]

WHEEL defaults to vllm 0.33.0's in the downloads cache. Times the three text scans of
`extract.registries` (enums naming classes, candidate lists, filters by class name) over
the wheel's Python files beside the time to read them, then extracts every file (the
facts cache is not used) and times `SelectionIndex` (built once per version) and its
`selections` for every site. Noisy on a shared machine: run it a few times.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from wheel_source import python_files

from errdex.extract import extract_file
from errdex.extract.registries import choice_lists, enum_registries, name_filters
from errdex.link.knobs import KnobIndex
from errdex.link.resolve import Namespace
from errdex.link.selection import SelectionIndex

WHEEL = Path.home() / ".cache/errdex/downloads/vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl"


def main(wheel: str) -> None:
    files = python_files(wheel)
    texts = [data.decode("utf-8", "replace") for data in files.values()]
    timings = {"enums": 0.0, "choices": 0.0, "filters": 0.0}
    counts = dict.fromkeys(timings, 0)
    for text in texts:
        for name, scan in (
            ("enums", enum_registries),
            ("choices", choice_lists),
            ("filters", name_filters),
        ):
            start = time.perf_counter()
            counts[name] += len(scan(text))
            timings[name] += time.perf_counter() - start
    print(f"{len(texts)} files")
    for name, seconds in timings.items():
        print(f"scan {name}: {seconds:.3f} s, {counts[name]} found")
    facts = [extract_file(path, data) for path, data in files.items()]
    start = time.perf_counter()
    names = Namespace(facts)
    knobs = KnobIndex(facts, names)
    built = time.perf_counter()
    index = SelectionIndex(facts, names, knobs)
    indexed = time.perf_counter()
    linked = sites = 0
    for fact in facts:
        for site in fact.sites:
            sites += 1
            linked += bool(index.selections(fact, site.class_name))
    done = time.perf_counter()
    print(f"namespace and knobs (for scale): {built - start:.2f} s")
    print(f"SelectionIndex: {indexed - built:.3f} s; selections of {sites} sites: ")
    print(f"  {done - indexed:.3f} s, {linked} sites with a selection")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(WHEEL))
