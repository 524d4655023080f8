"""What reading each site's source at extraction costs, over every file of a wheel.

    python bench/reading_cost.py [--package vllm==0.33.0] [--rounds 2]

Extracts every Python file of the package's wheel (from errdex's download cache; never
installed) in this one process, with the readings a page needs and without them
(`_readings` answering nothing), the two alternating in each round, and prints the CPU
seconds of each run. CPU time, in one process, so a load that comes and goes falls on both
alike; still noisy on a shared machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import errdex.extract as extract
from errdex.sources import open_source


def run(files: list[tuple[str, bytes]], readings: Callable[..., Any]) -> float:
    extract._readings = readings
    started = time.process_time()
    for path, data in files:
        extract.extract_file(path, data)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="vllm==0.33.0")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    source = open_source(args.package)
    files = [(f.path, f.data) for f in source.files()]
    kept = extract._readings
    without: list[float] = []
    with_readings: list[float] = []
    for _ in range(args.rounds):
        without.append(run(files, lambda *_: {}))
        with_readings.append(run(files, kept))
    print(f"{args.package}: {len(files)} files, extraction CPU seconds per round")
    print("without readings: " + ", ".join(f"{s:.2f}" for s in without))
    print("with readings:    " + ", ".join(f"{s:.2f}" for s in with_readings))
    extra = (min(with_readings) - min(without)) / min(without)
    print(f"readings add {extra:+.1%} (best of each)")


if __name__ == "__main__":
    main()
