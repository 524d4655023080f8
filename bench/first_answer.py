"""Zero-setup lookup: the time to the first answer from an empty database, beside a full index
of the same package in the same run, and whether the first answer is the whole index's.

Each package is installed without its dependencies into a folder of its own (never
imported: errdex reads its files through its metadata), and each real case of the accuracy
set for it (`bench/accuracy/cases/`) is looked up twice from an empty database and an empty
facts cache: as pasted, and as its last line alone, both with `--project`, as a user who
knows which library failed would. The first answer is timed when its JSON is out; the run
then completes the package, and the same paste looked up again in that database gives the
whole index's answer.

    python bench/first_answer.py [--packages transformers==4.38.2 ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CASES = HERE / "accuracy" / "cases"
OUT = HERE / "out" / "first_answer"
DEFAULT = [
    "transformers==4.38.2",
    "vllm==0.33.0",
    "pydantic==2.7.1",
    "huggingface_hub==0.25.1",
    "openai==1.61.0",
]


def install(spec: str) -> Path:
    """The package alone (no dependencies) in a folder of its own."""
    from errdex.sources.pypi import cache_dir, find_cached

    target = OUT / "site" / spec.replace("==", "-")
    if not any(target.glob("*.dist-info")):
        name, version = spec.split("==")
        cached = find_cached(cache_dir(), name, version)  # errdex's own downloads (vllm's)
        wanted = str(cached) if cached is not None and cached.suffix == ".whl" else spec
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
             "--target", str(target), wanted],
            check=True,
        )  # fmt: skip
    return target


def errdex(
    site: Path, home: Path, *args: str, paste: str | None = None
) -> tuple[float, float, str, int]:
    """Run errdex; (seconds to the JSON on stdout, seconds to exit, that JSON, exit code)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(site),
        "ERRDEX_DB": str(home / "errdex.db"),
        "ERRDEX_CACHE": str(home / "cache"),
    }
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "errdex", *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(paste or "")
    process.stdin.close()
    lines: list[str] = []
    first = 0.0
    for line in process.stdout:
        lines.append(line)
        if line.rstrip() == "}" or line.rstrip() == "]":  # the JSON document's last line
            first = time.perf_counter() - started
            break
    rest = process.stdout.read()
    code = process.wait()
    total = time.perf_counter() - started
    return first or total, total, "".join(lines) + rest, code


def top(output: str) -> tuple[str, int] | None:
    try:
        matches = json.loads(output).get("matches") or []
    except json.JSONDecodeError:
        return None
    return (matches[0]["file"], matches[0]["line"]) if matches else None


def run_package(spec: str) -> dict[str, Any]:
    name = spec.split("==")[0]
    cases_file = CASES / f"{name}.json"
    cases = json.loads(cases_file.read_text()) if cases_file.exists() else []
    site = install(spec)
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "full"
        _, full_seconds, out, _ = errdex(site, home, "index", f"installed:{name}", "--json")
        files = json.loads(out)[0]["files"]
    rows = []
    for case in cases:
        for form, paste in (("as pasted", case["paste"]), ("last line", last_line(case["paste"]))):
            with tempfile.TemporaryDirectory() as scratch:
                home = Path(scratch)
                first, total, out, _ = errdex(
                    site, home, "lookup", "-", "--json", "--project", name, paste=paste
                )
                record = json.loads(out) if out.strip() else {}
                partial = record.get("partial_index") or []
                _, _, again, _ = errdex(
                    site, home, "lookup", "-", "--json", "--project", name, paste=paste
                )
            rows.append(
                {
                    "case": case["id"],
                    "form": form,
                    "first": first,
                    "total": total,
                    "subset_files": partial[0]["files"] if partial else None,
                    "same_top1": top(out) == top(again),
                    "top1_found": top(out) is not None,
                }
            )
    return {"package": spec, "files": files, "full_index": full_seconds, "rows": rows}


def last_line(paste: str) -> str:
    lines = [line for line in paste.strip().splitlines() if line.strip()]
    return lines[-1] if lines else paste


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", nargs="*", default=DEFAULT)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"{'package':28} {'files':>6} {'full index':>10} {'first p50':>9} {'first max':>9}"
          f" {'≤2 s':>5} {'≤full/10':>8} {'same top-1':>10}")  # fmt: skip
    results = []
    for spec in args.packages:
        result = run_package(spec)
        results.append(result)
        firsts = [r["first"] for r in result["rows"]]
        if not firsts:
            print(f"{spec:28} {result['files']:>6} {result['full_index']:>9.1f}s  (no cases)")
            continue
        within = sum(f <= 2.0 for f in firsts)
        tenth = sum(f <= result["full_index"] / 10 for f in firsts)
        same = sum(r["same_top1"] for r in result["rows"])
        print(
            f"{spec:28} {result['files']:>6} {result['full_index']:>9.1f}s"
            f" {statistics.median(firsts):>8.2f}s {max(firsts):>8.2f}s"
            f" {within:>2}/{len(firsts):<2} {tenth:>4}/{len(firsts):<3}"
            f" {same:>6}/{len(firsts)}"
        )
    (OUT / "results.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
