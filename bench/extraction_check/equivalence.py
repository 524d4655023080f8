"""Does a faster extraction still find the same facts? Compare it with a full parse.

    python bench/extraction_check/equivalence.py dump OUT.msgpack [NAME==VERSION ...]
    python bench/extraction_check/equivalence.py compare OUT.msgpack
    python bench/extraction_check/equivalence.py again OUT.msgpack

`dump` extracts every `.py` file of each package's wheel (downloaded into errdex's cache)
with the skeleton turned off (every file parsed whole: the reference) and writes the facts;
run it on the code before a change.
`compare` extracts the same files with the code as it is now (skeleton on) and prints, per
fact field, how many files differ and a few examples, with the site records compared one by
one. Nothing is imported from the wheels: they are read as archives.
`again` runs the indexer's second round on each wheel (the files that call another file's
raising helper, extracted again with those calls kept) and checks that it only adds: every
fact of the first extraction is still there, and every fact it has is in the whole-file
parse of the dump (made without `--as-is`); call sites excepted, which blanked bodies give
read from their text.
"""

from __future__ import annotations

import argparse
import sys
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

import errdex.extract as extract
from errdex.facts import FileFacts
from errdex.indexing.helpercalls import names_to_keep
from errdex.sources.pypi import download

_DEFAULT_PACKAGES = (
    "vllm==0.33.0",
    "transformers==4.54.0",
    "pydantic==2.7.1",
    "huggingface_hub==0.33.0",
    "datasets==3.6.0",
    "click==8.3.1",
    "fastapi==0.115.3",
    "openai==1.61.0",
)
_encoder = msgspec.msgpack.Encoder()


def _files(wheel: Path) -> Iterator[tuple[str, bytes]]:
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.endswith(".py"):
                yield f"{wheel.name}:{name}", archive.read(name)


def _extract(job: tuple[str, bytes, bool]) -> tuple[str, bytes]:
    key, data, reference = job
    path = key.split(":", 1)[1]
    if reference:
        extract.build_skeleton = lambda text, keep_calls=(): None  # type: ignore[attr-defined]
    return key, _encoder.encode(extract.extract_file(path, data))


def _run(wheels: list[Path], reference: bool) -> dict[str, bytes]:
    jobs = [(key, data, reference) for wheel in wheels for key, data in _files(wheel)]
    with ProcessPoolExecutor() as pool:
        return dict(pool.map(_extract, jobs, chunksize=16))


def _extract_again(job: tuple[str, bytes, tuple[str, ...]]) -> tuple[str, bytes]:
    key, data, names = job
    facts = extract.extract_again(key.split(":", 1)[1], data, names)
    return key, b"" if facts is None else _encoder.encode(facts)


def _again(wheels: list[Path], first: dict[str, bytes]) -> dict[str, bytes]:
    """The facts of the second round, as the indexer runs it per version, where they change."""
    decoder = msgspec.msgpack.Decoder(FileFacts)
    jobs = []
    for wheel in wheels:
        files = list(_files(wheel))
        items = [(key.split(":", 1)[1], data) for key, data in files]
        wanted = names_to_keep(items, [decoder.decode(first[key]) for key, _ in files])
        for key, data in files:
            path = key.split(":", 1)[1]
            if path in wanted:
                jobs.append((key, data, wanted[path]))
    with ProcessPoolExecutor() as pool:
        return {key: blob for key, blob in pool.map(_extract_again, jobs, chunksize=4) if blob}


# The calls of a blanked body are read from its text (`extract.blanked_calls`): more of them
# than the walker notes, and most with their guard not read. A body the second round parses
# has the walker's calls instead, so this field changes both ways and is not compared.
_READ_FROM_TEXT = frozenset({"call_sites"})


def _missing(small: FileFacts, big: FileFacts) -> list[str]:
    """The fields in which `big` lacks something `small` has."""
    return [
        field
        for field in small.__struct_fields__
        if field not in _READ_FROM_TEXT and _added(big, small, field)
    ]


def _added(before: FileFacts, after: FileFacts, field: str) -> list[Any]:
    """What `after` has in `field` that `before` has not: items, dict entries, or the value."""
    old, new = getattr(before, field), getattr(after, field)
    if isinstance(new, tuple):
        return [item for item in new if item not in old]
    if isinstance(new, dict):
        return [(key, value) for key, value in new.items() if old.get(key) != value]
    return [] if new == old else [new]


def _invented(before: FileFacts, after: FileFacts, whole: FileFacts) -> list[str]:
    """The fields in which `after` adds to `before` what the whole-file parse does not have."""
    out = []
    for field in after.__struct_fields__:
        if field in _READ_FROM_TEXT:
            continue
        not_in_whole = _added(whole, after, field)
        if any(item in not_in_whole for item in _added(before, after, field)):
            out.append(field)
    return out


def _check_again(reference: dict[str, bytes], wheels: list[Path]) -> int:
    decoder = msgspec.msgpack.Decoder(FileFacts)
    started = time.perf_counter()
    first = _run(wheels, reference=False)
    second = _again(wheels, first)
    lost: Counter[str] = Counter()
    invented: Counter[str] = Counter()
    added: Counter[str] = Counter()
    for key, blob in second.items():
        before, after = decoder.decode(first[key]), decoder.decode(blob)
        whole = decoder.decode(reference[key])
        lost.update(f"{field} ({key})" for field in _missing(before, after))
        invented.update(f"{field} ({key})" for field in _invented(before, after, whole))
        for field in after.__struct_fields__:
            grown = len(getattr(after, field) or ()) - len(getattr(before, field) or ())
            if grown and field not in ("path", "module", "error"):
                added[field] += grown
    print(
        f"{len(first)} files, {len(second)} extracted again with facts added, "
        f"{time.perf_counter() - started:.1f} s; added: {dict(added.most_common())}"
    )
    for title, found in (("lost", lost), ("not in the whole-file parse", invented)):
        print(f"{title}: {sum(found.values())}")
        for example in list(found)[:8]:
            print("  " + example)
    return 1 if lost or invented else 0


def _site_key(site: Any) -> tuple[Any, ...]:
    return (site.line, str(site.kind), site.function)


def _compare(
    before: FileFacts, after: FileFacts, counts: Counter[str], shown: dict[str, list[str]]
) -> None:
    for field in before.__struct_fields__:
        old, new = getattr(before, field), getattr(after, field)
        if old == new:
            continue
        counts[field] += 1
        examples = shown.setdefault(field, [])
        if len(examples) >= 4:
            continue
        if field == "sites":
            olds = {_site_key(s): s for s in old}
            news = {_site_key(s): s for s in new}
            for key in sorted(set(olds) | set(news), key=str):
                if olds.get(key) != news.get(key):
                    examples.append(
                        f"{before.path}:{key[0]} {key[1]} in {key[2]}\n"
                        f"    before: {olds.get(key)}\n    after:  {news.get(key)}"
                    )
                    break
        else:
            gone = [x for x in old if x not in new] if isinstance(old, tuple) else old
            added = [x for x in new if x not in old] if isinstance(new, tuple) else new
            examples.append(
                f"{before.path}\n    before: {str(gone)[:400]}\n    after:  {str(added)[:400]}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("action", choices=["dump", "compare", "again"])
    parser.add_argument("out", type=Path)
    parser.add_argument("packages", nargs="*")
    parser.add_argument(
        "--as-is",
        action="store_true",
        help="dump with the code as it is (skeleton on): a reference for changes that must "
        "not change a single fact",
    )
    args = parser.parse_args()
    facts_decoder = msgspec.msgpack.Decoder(FileFacts)
    if args.action == "dump":
        wheels = [download(*spec.split("==")) for spec in args.packages or _DEFAULT_PACKAGES]
        started = time.perf_counter()
        reference = _run(wheels, reference=not args.as_is)
        args.out.write_bytes(
            _encoder.encode({"wheels": [str(w) for w in wheels], "facts": reference})
        )
        print(
            f"{len(reference)} files, {len(wheels)} wheels, {time.perf_counter() - started:.1f} s"
        )
        return 0
    saved = msgspec.msgpack.decode(args.out.read_bytes())
    reference = saved["facts"]
    if args.action == "again":
        return _check_again(reference, [Path(w) for w in saved["wheels"]])
    started = time.perf_counter()
    current = _run([Path(w) for w in saved["wheels"]], reference=False)
    counts: Counter[str] = Counter()
    shown: dict[str, list[str]] = {}
    sites_before = sites_after = same_sites = 0
    for key, blob in reference.items():
        before, after = facts_decoder.decode(blob), facts_decoder.decode(current[key])
        sites_before += len(before.sites)
        sites_after += len(after.sites)
        same_sites += len(
            set(map(_encoder.encode, before.sites)) & set(map(_encoder.encode, after.sites))
        )
        _compare(before, after, counts, shown)
    print(
        f"{len(reference)} files, {time.perf_counter() - started:.1f} s; sites: "
        f"{sites_before} before, {sites_after} after, {same_sites} identical"
    )
    for field, count in counts.most_common():
        print(f"\n{field}: {count} files differ")
        for example in shown[field]:
            print("  " + example)
    return 0 if not counts else 1


if __name__ == "__main__":
    sys.exit(main())
