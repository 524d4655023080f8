"""The link-time cost of callers through a function's own imports, on one wheel.

    python bench/pages/callerguard_cost.py --cache FILE [--runs N] [WHEEL]

Loads every Python file's facts from the facts cache FILE (extracting and storing those it
lacks, with the extractor of the `errdex` on the path), then links the version N times and
prints the CPU time of each `link_version` and how many call sites and caller links it
holds. Run it with main's `src` and with this branch's on the path, each with a cache of its
own, interleaved: the machine is shared, so one run says little.
"""

from __future__ import annotations

import argparse
import configparser
import time
import zipfile
from pathlib import Path

import msgspec
from wheel_source import python_files

from errdex.extract import extract_file
from errdex.facts import FileFacts
from errdex.indexing.cache import FactsCache, content_key
from errdex.link import link_version
from errdex.sources.base import EntryPoint

WHEEL = Path.home() / ".cache/errdex/downloads/vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl"


def entry_points(wheel: str) -> tuple[EntryPoint, ...]:
    """The wheel's console scripts, from its `entry_points.txt`."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        if not names:
            return ()
        parser = configparser.ConfigParser(interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read_string(archive.read(names[0]).decode())
    if not parser.has_section("console_scripts"):
        return ()
    return tuple(
        EntryPoint("console_scripts", name, target.strip())
        for name, target in parser.items("console_scripts")
    )


def cached_facts(wheel: str, cache: FactsCache) -> list[FileFacts]:
    members = python_files(wheel)
    keys = {path: content_key(path, data) for path, data in members.items()}
    found = cache.get_many(keys.values())
    decoder = msgspec.msgpack.Decoder(FileFacts)
    out: list[FileFacts] = []
    missing: dict[str, bytes] = {}
    for path, data in members.items():
        blob = found.get(keys[path])
        if blob is None:
            facts = extract_file(path, data)
            missing[keys[path]] = msgspec.msgpack.encode(facts)
        else:
            facts = decoder.decode(blob)
        out.append(facts)
    if missing:
        print(f"extracted {len(missing)} files missing from the cache")
        cache.put_many(missing)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", nargs="?", default=str(WHEEL))
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    cache = FactsCache(args.cache)
    try:
        files = cached_facts(args.wheel, cache)
    finally:
        cache.close()
    scripts = entry_points(args.wheel)
    calls = sum(len(f.call_sites) for f in files)
    for _ in range(args.runs):
        start = time.process_time()
        sites = link_version("vllm", files, scripts)
        spent = time.process_time() - start
        links = sum(len(s.caller_links) for s in sites)
        with_callers = sum(bool(s.caller_links) for s in sites)
        print(
            f"link CPU {spent:.2f} s: {len(sites)} sites, {calls} call sites, "
            f"{links} caller links, {with_callers} sites with a caller"
        )


if __name__ == "__main__":
    main()
