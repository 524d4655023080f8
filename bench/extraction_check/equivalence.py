"""Does a faster extraction still find the same facts? Compare it with a full parse.

    python bench/extraction_check/equivalence.py dump OUT.msgpack [NAME==VERSION ...]
    python bench/extraction_check/equivalence.py compare OUT.msgpack

`dump` extracts every `.py` file of each package's wheel (downloaded into errdex's cache)
with the skeleton turned off (every file parsed whole: the reference) and writes the facts;
run it on the code before a change.
`compare` extracts the same files with the code as it is now (skeleton on) and prints, per
fact field, how many files differ and a few examples, with the site records compared one by
one. Nothing is imported from the wheels: they are read as archives.
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
    parser.add_argument("action", choices=["dump", "compare"])
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
