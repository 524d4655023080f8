"""Extraction time of one wheel under two source trees, alternated in the same run.

    python bench/extraction_check/extract_time.py BEFORE_SRC AFTER_SRC [--package vllm==0.33.0]
        [--rounds 3]

Each round runs, for each tree in turn, a fresh process (PYTHONPATH set to the tree) that
extracts every `.py` file of the wheel single-threaded with `errdex.extract.extract_file`,
as a cold index does with one worker and an empty cache, and prints its seconds (process
CPU time and wall time). Alternating the trees spreads the load of a shared machine over
both. Nothing of the wheel is imported.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

_CHILD = """
import sys, time, zipfile
from errdex.extract import extract_file
files = []
with zipfile.ZipFile(sys.argv[1]) as archive:
    files = [(n, archive.read(n)) for n in archive.namelist() if n.endswith(".py")]
wall, cpu = time.perf_counter(), time.process_time()
sites = sum(len(extract_file(name, data).sites) for name, data in files)
print(f"{time.process_time() - cpu:.1f} {time.perf_counter() - wall:.1f} {len(files)} {sites}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("trees", type=Path, nargs=2, help="two `src` folders: before, after")
    parser.add_argument("--package", default="vllm==0.33.0")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from errdex.sources.pypi import download

    wheel = download(*args.package.split("=="))
    totals: dict[Path, list[float]] = {tree: [] for tree in args.trees}
    for round_ in range(1, args.rounds + 1):
        for tree in args.trees:
            env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
            out = subprocess.run(
                [sys.executable, "-c", _CHILD, str(wheel)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            cpu, wall, files, sites = float(out[0]), float(out[1]), out[2], out[3]
            totals[tree].append(cpu)
            print(
                f"round {round_} {tree}: cpu {cpu:.1f} s, wall {wall:.1f} s, "
                f"{files} files, {sites} sites"
            )
    for tree, cpus in totals.items():
        print(f"{tree}: cpu min {min(cpus):.1f} s, median {sorted(cpus)[len(cpus) // 2]:.1f} s")


if __name__ == "__main__":
    main()
