"""Cost of reading the request bodies of a server (`extract.request_models`) on one wheel:
the time of the three text readers over every file, beside what they find, and, given an
index, how many sites link a request field and how many bytes those links take.

    python bench/pages/request_cost.py [WHEEL] [--db PATH] [--link]

`--link` also extracts every file (no cache) and times the linker's part: the index of
bodies and fields, and the links of every site.
"""

from __future__ import annotations

import argparse
import time

import msgspec
from wheel_source import extracted, python_texts

from errdex.extract.request_models import request_carries, request_fields, route_bodies
from errdex.link.requests import RequestIndex
from errdex.link.resolve import Namespace
from errdex.store import open_store

WHEEL = "vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", nargs="?", default=WHEEL)
    parser.add_argument("--db")
    parser.add_argument("--link", action="store_true")
    args = parser.parse_args()
    texts = python_texts(args.wheel)
    counts = [0, 0, 0]
    spent = [0.0, 0.0, 0.0]
    for text in texts:
        for index, reader in enumerate((route_bodies, request_fields, request_carries)):
            start = time.perf_counter()
            counts[index] += len(reader(text))
            spent[index] += time.perf_counter() - start
    print(f"{len(texts)} files")
    for name, count, seconds in zip(("routes", "fields", "carries"), counts, spent, strict=True):
        print(f"{name}: {count} found in {seconds * 1000:.0f} ms")
    if args.link:
        _link_cost(args.wheel)
    if args.db:
        with open_store(args.db) as store:
            sites = linked = size = 0
            for stored in store.list_sites():
                sites += 1
                if stored.requests:
                    linked += 1
                    size += len(msgspec.msgpack.encode(stored.requests))
        print(f"{linked} of {sites} sites link a request field: {size / 1024:.1f} KiB of links")


def _link_cost(wheel: str) -> None:
    files = extracted(wheel)
    start = time.perf_counter()
    names = Namespace(files)
    named = time.perf_counter() - start
    start = time.perf_counter()
    index = RequestIndex(files, names)
    built = time.perf_counter() - start
    start = time.perf_counter()
    linked = sum(
        1
        for facts in files
        if facts.error is None
        for site in facts.sites
        if index.links(site, facts, names)
    )
    spent = time.perf_counter() - start
    print(
        f"link: index {built * 1000:.0f} ms, links of every site {spent * 1000:.0f} ms "
        f"({linked} raw sites linked; the namespace, built by linking anyway: {named:.1f} s)"
    )


if __name__ == "__main__":
    main()
