"""Calls read from blanked bodies beside the whole-file parse's calls in the same bodies.

    python bench/extraction_check/blanked_calls.py OUT.msgpack

`OUT.msgpack` is a reference dump of `equivalence.py dump` (every file parsed whole). For
each file that gets a skeleton, the calls the walker notes inside the bodies the skeleton
blanks are compared with those read from their text (`extract.blanked_calls`): found at
the same line, credited to the same function (and class), and with a guard that is known
and the whole-file parse's, or marked unknown. The text also finds calls nested in an
expression, which the walker does not note: they are counted apart.
"""

from __future__ import annotations

import ast
import sys
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import msgspec

import errdex.extract as extract
from errdex.extract.skeleton import build_skeleton
from errdex.facts import CallSite, FileFacts

_Place = tuple[int, str, str | None]  # line, callee, receiver
_REPORTED = (
    "whole-file parse: calls in blanked bodies",
    "whole-file parse: with a guard",
    "whole-file calls not read",
    "read from text",
    "read: nested in an expression, or not at its statement's line",
    "read: credited to another function",
    "read: same place and function",
    "  guard known and the same",
    "  guard known and different",
    "  guard unknown",
    "  guard unknown, whole-file guard empty",
)


def _jobs(saved: dict[str, object]) -> Iterator[tuple[str, bytes, bytes]]:
    facts = saved["facts"]
    assert isinstance(facts, dict) and isinstance(saved["wheels"], list)
    for wheel in saved["wheels"]:
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                key = f"{Path(wheel).name}:{name}"
                if key in facts:
                    yield key, archive.read(name), facts[key]


def _compare(job: tuple[str, bytes, bytes]) -> Counter[str]:
    key, data, reference = job
    counts: Counter[str] = Counter()
    try:
        text = extract.decode_source(data)
    except ValueError:
        return counts
    reduced = build_skeleton(text)
    if reduced is None:
        return counts
    try:
        ast.parse(reduced.text)
    except SyntaxError:
        return counts  # parsed whole: nothing is read from text
    lines: set[int] = set()
    for _, body, end in reduced.blanked:
        lines.update(range(text.count("\n", 0, body) + 1, text.count("\n", 0, end) + 2))
    read = [c for c in extract.extract_file(key, data).call_sites if c.line in lines]
    whole = [
        c for c in msgspec.msgpack.decode(reference, type=FileFacts).call_sites if c.line in lines
    ]
    by_place: dict[_Place, list[CallSite]] = {}
    for call in whole:
        by_place.setdefault((call.line, call.callee, call.receiver), []).append(call)
    counts["whole-file parse: calls in blanked bodies"] += len(whole)
    counts["whole-file parse: with a guard"] += sum(1 for c in whole if c.conditions)
    counts["read from text"] += len(read)
    for call in read:
        same_place = by_place.get((call.line, call.callee, call.receiver))
        if not same_place:
            counts["read: nested in an expression, or not at its statement's line"] += 1
            continue
        reference_call = same_place.pop(0)
        if (call.function, call.class_name) != (reference_call.function, reference_call.class_name):
            counts["read: credited to another function"] += 1
            continue
        counts["read: same place and function"] += 1
        if not call.guard_known:
            counts["  guard unknown"] += 1
            counts["  guard unknown, whole-file guard empty"] += not reference_call.conditions
        elif call.conditions == reference_call.conditions:
            counts["  guard known and the same"] += 1
        else:
            counts["  guard known and different"] += 1
    counts["whole-file calls not read"] += sum(len(left) for left in by_place.values())
    return counts


def main() -> int:
    saved = msgspec.msgpack.decode(Path(sys.argv[1]).read_bytes())
    started = time.perf_counter()
    total: Counter[str] = Counter()
    with ProcessPoolExecutor() as pool:
        for counts in pool.map(_compare, _jobs(saved), chunksize=16):
            total.update(counts)
    print(f"{time.perf_counter() - started:.1f} s")
    for name in _REPORTED:
        print(f"{name}: {total[name]:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
