"""Zero-setup lookup: the time to the first answer from an empty database, beside a full index
of the same package in the same run, and whether the first answer is the whole index's.

    python bench/first_answer.py                      # timing on 6 packages, then accuracy
    python bench/first_answer.py --timing-only        # or --accuracy-only
    python bench/first_answer.py --packages vllm==0.33.0 --sampled 5

**Timing.** errdex's own modules are byte-compiled first, as an installed errdex's are. Each
package is installed without its dependencies into a folder of its own (never imported:
errdex reads its files through its metadata). In the same run, `errdex
index installed:NAME` times the whole index from an empty database and an empty facts
cache; then each paste is looked up by `errdex lookup - --json --project NAME` from an empty
database and an empty facts cache, timed to the end of its JSON (the process then goes on
to complete the package; the bench stops it there). The pastes are the real cases of the
accuracy sets for that package (`bench/accuracy/cases/`, as pasted and their last line),
and `--sampled` sites of the package itself, each as a traceback (one frame at the site,
the message with its values filled in) and as that message's last line alone, no frames.
A package with a wheel in the download cache is also looked up as a release
(`--package NAME==VERSION`), read from the wheel's members, never installed.
Each first answer is compared with the same paste's answer from the whole index.

**Accuracy.** Every case of the issue-based set, the held-out set and the test-suite set,
in each form it has, looked up from an empty database in this process as a release named
by the user (the case's own version, read from the download cache): the first answer's
top-1 against the top-1 of the whole release indexed (one database per release, kept in
`bench/out/first_answer/whole/`). A case counts the same when both give the same site (or
both none).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SETS = HERE / "accuracy"
OUT = HERE / "out" / "first_answer"
DEFAULT = [
    "transformers==4.38.2",
    "vllm==0.33.0",
    "sqlalchemy==2.1.9",
    "sympy==1.14.0",
    "pandas==3.1.1",
    "django==5.2.8",
]
SITE_PACKAGES = "/usr/lib/python3.11/site-packages"


def downloads() -> Path:
    from errdex.sources.pypi import cache_dir

    return cache_dir()


def compile_errdex() -> None:
    """errdex's modules byte-compiled, as pip compiles a package it installs: a checkout run
    with PYTHONDONTWRITEBYTECODE (or a read-only one) would otherwise compile every module
    from source at each start, a third of a second no user waits."""
    import compileall

    import errdex

    compileall.compile_dir(Path(errdex.__file__).parent, quiet=1)


def install(spec: str) -> Path:
    """The package alone (no dependencies) in a folder of its own."""
    from errdex.sources.pypi import find_cached

    target = OUT / "site" / spec.replace("==", "-")
    if not any(target.glob("*.dist-info")):
        name, version = spec.split("==")
        cached = find_cached(downloads(), name, version)
        wanted = str(cached) if cached is not None and cached.suffix == ".whl" else spec
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
             "--target", str(target), wanted],
            check=True,
        )  # fmt: skip
    return target


def environment(site: Path | None, home: Path) -> dict[str, str]:
    """A cold errdex: its own database and facts cache, the shared download cache."""
    (home / "cache").mkdir(parents=True, exist_ok=True)
    shared = home / "cache" / "downloads"
    if not shared.exists():
        shared.symlink_to(downloads(), target_is_directory=True)
    env = {**os.environ, "ERRDEX_DB": str(home / "errdex.db"), "ERRDEX_CACHE": str(home / "cache")}
    # the errdex that runs this bench, not whichever one the interpreter's site-packages names
    import errdex

    own = str(Path(errdex.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([*([str(site)] if site is not None else []), own])
    return env


def first_answer(env: dict[str, str], args: list[str], paste: str) -> tuple[float, str]:
    """Run `errdex lookup`; (seconds to the end of its JSON on stdout, that JSON). The process
    is stopped once its answer is out: what it does after (completing) is not timed."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "errdex", "lookup", "-", "--json", *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(paste)
    process.stdin.close()
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line)
        if line.rstrip() in {"}", "]"}:  # the JSON document's last line
            break
    seconds = time.perf_counter() - started
    process.terminate()
    process.wait()
    return seconds, "".join(lines)


def top_of_json(output: str) -> tuple[str, int] | None:
    try:
        matches = json.loads(output).get("matches") or []
    except json.JSONDecodeError:
        return None
    return (matches[0]["file"], matches[0]["line"]) if matches else None


def top_in(store: Any, paste: str, **options: Any) -> tuple[str, int] | None:
    from errdex.errors import ErrdexError
    from errdex.match.answer import answer_paste

    try:
        matches = answer_paste(store, paste, auto_index=False, **options).result.matches
    except ErrdexError:
        return None
    return (matches[0].file, matches[0].line) if matches else None


def last_line(paste: str) -> str:
    lines = [line.strip("`\n ") for line in paste.strip().splitlines()]
    lines = [line for line in lines if line]
    return lines[-1] if lines else paste


# -- pastes -------------------------------------------------------------------------------


def case_pastes(name: str) -> list[tuple[str, str, str]]:
    """(id, form, paste) of the issue-based cases of a package, as pasted and last line."""
    found = []
    for folder in (SETS / "cases", SETS / "heldout" / "cases"):
        path = folder / f"{name}.json"
        for case in json.loads(path.read_text()) if path.exists() else []:
            found.append((case["id"], "as pasted", case["paste"]))
            found.append((case["id"], "last line", last_line(case["paste"])))
    return found


def sampled_pastes(store: Any, name: str, count: int) -> list[tuple[str, str, str]]:
    """`count` raise sites of the package, each as a one-frame traceback and as its message
    alone: the values filled in with made-up words, as a user's paste has its own."""

    sites = [
        s
        for s in store.list_sites(project=name)
        if s.site.kind.value == "raise" and s.site.message is not None and s.exception
        and sum(len(p) for p in s.site.message.parts if isinstance(p, str)) >= 24
    ]  # fmt: skip
    chosen = random.Random(19).sample(sites, min(count, len(sites)))
    found = []
    for number, indexed in enumerate(chosen, 1):
        assert indexed.site.message is not None and indexed.exception is not None
        message = "".join(
            _filled(n, part, indexed.site.message.parts)
            for n, part in enumerate(indexed.site.message.parts)
        )
        line = f"{indexed.exception.name}: {' '.join(message.split())}"
        function = indexed.site.function.rsplit(".", 1)[-1]
        traceback = (
            "Traceback (most recent call last):\n"
            f'  File "{SITE_PACKAGES}/{indexed.file}", line {indexed.site.line}, in {function}\n'
            f"{line}\n"
        )
        found.append((f"{name}-site-{number}", "traceback", traceback))
        found.append((f"{name}-site-{number}", "message", line))
    return found


def _filled(n: int, part: object, parts: tuple[object, ...]) -> str:
    """A template's part as a user's paste has it: a value is a made-up word, quoted unless
    the template quotes it itself (`dtype '{dtype}'` reads `dtype 'value1'`, not
    `dtype ''value1''`)."""
    if isinstance(part, str):
        return part
    before = parts[n - 1] if n else ""
    quoted = isinstance(before, str) and before.endswith(("'", '"', "`"))
    return f"value{n}" if quoted else f"'value{n}'"


# -- timing -------------------------------------------------------------------------------


def time_package(spec: str, sampled: int, limit: int | None) -> dict[str, Any]:
    site = install(spec)
    with tempfile.TemporaryDirectory(prefix="whole-", dir=OUT) as scratch:
        return _time_package(spec, site, Path(scratch), sampled, limit)


def _time_package(
    spec: str, site: Path, home: Path, sampled: int, limit: int | None
) -> dict[str, Any]:
    from errdex.sources.pypi import find_cached
    from errdex.store import open_store

    name = spec.split("==")[0]
    env = environment(site, home)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "index", f"installed:{name}", "--json"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    full_seconds = time.perf_counter() - started
    files = json.loads(done.stdout)[0]["files"]
    wheel = find_cached(downloads(), *spec.split("=="))
    rows = []
    with open_store(home / "errdex.db") as whole:
        project = whole.projects()[0].name
        pastes = case_pastes(name) + sampled_pastes(whole, project, sampled)
        for case, form, paste in pastes[:limit]:
            ways = [("installed", ["--project", name])]
            if wheel is not None and wheel.suffix == ".whl":
                ways.append(("wheel", ["--package", spec]))
            for way, args in ways:
                with tempfile.TemporaryDirectory(dir=OUT) as scratch:
                    seconds, out = first_answer(environment(site, Path(scratch)), args, paste)
                partial = (json.loads(out).get("partial_index") or [{}])[0] if out else {}
                rows.append({
                    "case": case, "form": form, "way": way, "first": seconds,
                    "subset_files": partial.get("files"),
                    "same_top1": top_of_json(out) == top_in(whole, paste, project=project),
                    "answered": top_of_json(out) is not None,
                })  # fmt: skip
    return {"package": spec, "files": files, "full_index": full_seconds, "rows": rows}


def print_timing(results: list[dict[str, Any]]) -> None:
    print(f"\n{'package':22} {'files':>6} {'full index':>10}  {'paste':9} {'way':9}"
          f" {'n':>3} {'first p50':>9} {'first max':>9} {'<=2 s':>6} {'<=full/10':>9}"
          f" {'same top-1':>10} {'subset p50':>10}")  # fmt: skip
    for result in results:
        groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for row in result["rows"]:
            bare = row["form"] in {"last line", "message"}
            groups.setdefault(("message" if bare else "traceback", row["way"]), []).append(row)
        for (kind, way), rows in sorted(groups.items()):
            firsts = [r["first"] for r in rows]
            subsets = [r["subset_files"] for r in rows if r["subset_files"] is not None]
            print(
                f"{result['package']:22} {result['files']:>6} {result['full_index']:>9.1f}s"
                f"  {kind:9} {way:9} {len(rows):>3} {statistics.median(firsts):>8.2f}s"
                f" {max(firsts):>8.2f}s {sum(f <= 2.0 for f in firsts):>3}/{len(rows):<2}"
                f" {sum(f <= result['full_index'] / 10 for f in firsts):>5}/{len(rows):<3}"
                f" {sum(r['same_top1'] for r in rows):>6}/{len(rows):<3}"
                f" {statistics.median(subsets) if subsets else '-':>10}"
            )
        for row in result["rows"]:
            if not row["same_top1"]:
                print(
                    f"    differs from the whole index: {row['case']} ({row['form']}, {row['way']})"
                )


# -- accuracy -----------------------------------------------------------------------------


def accuracy_cases(sets: list[str]) -> list[tuple[str, str, str, str]]:
    """(release, id, form, paste) of every case of the chosen sets, in each form it has."""
    found = []
    folders = {"cases": [SETS / "cases"], "heldout": [SETS / "heldout" / "cases"],
               "suites": [SETS / "suites"]}  # fmt: skip
    for chosen in sets:
        for folder in folders[chosen]:
            for path in sorted(folder.glob("*.json")):
                for case in json.loads(path.read_text()):
                    spec = f"{case['package']}=={case['version']}"
                    forms = case.get("forms") or {
                        "as pasted": case["paste"], "last line": last_line(case["paste"])
                    }  # fmt: skip
                    for form, paste in forms.items():
                        if paste:
                            found.append((spec, case["id"], form, paste))
    return found


def whole_release(spec: str) -> Path:
    """A database holding the release whole (kept between runs; redone when errdex's
    extraction or linking changed)."""
    from errdex.indexing import index_source
    from errdex.sources import open_source
    from errdex.store import open_store

    path = OUT / "whole" / f"{spec.replace('==', '-')}.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open_store(path, create=True) as store:
        index_source(open_source(spec), store)
    return path


def run_accuracy(sets: list[str], limit: int | None) -> dict[str, Any]:
    from errdex.errors import ErrdexError
    from errdex.match.answer import answer_paste
    from errdex.store import open_store

    cases = accuracy_cases(sets)[:limit]
    rows = []
    wholes: dict[str, Path | None] = {}
    for number, (spec, case, form, paste) in enumerate(cases, 1):
        if spec not in wholes:
            try:
                wholes[spec] = whole_release(spec)
            except ErrdexError as error:
                print(f"  {spec}: cannot index it whole ({error}); its cases are left out")
                wholes[spec] = None
        whole_path = wholes[spec]
        if whole_path is None:
            continue
        with open_store(whole_path) as whole:
            expected = top_in(whole, paste, project=whole.projects()[0].name)
        with (
            tempfile.TemporaryDirectory(dir=OUT) as scratch,
            open_store(Path(scratch) / "first.db", create=True) as store,
        ):
            started = time.perf_counter()
            try:
                answer = answer_paste(store, paste, release=spec, first=True)
                matches = answer.result.matches
                got = (matches[0].file, matches[0].line) if matches else None
                partial = bool(answer.partial)
            except ErrdexError:
                got, partial = None, False
            seconds = time.perf_counter() - started
        rows.append({"release": spec, "case": case, "form": form, "same_top1": got == expected,
                     "partial": partial, "first": got, "whole": expected,
                     "seconds": seconds})  # fmt: skip
        if number % 50 == 0:
            same = sum(r["same_top1"] for r in rows)
            print(f"  {number}/{len(cases)} looked up, {same} the same top-1", flush=True)
    return {"sets": sets, "rows": rows}


def print_accuracy(result: dict[str, Any]) -> None:
    rows = result["rows"]
    partial = [r for r in rows if r["partial"]]
    print(f"\naccuracy sets {', '.join(result['sets'])}: {len(rows)} pastes from empty databases,"
          f" {len(partial)} answered from a partial index")  # fmt: skip
    print(
        f"  same top-1 as the whole release: {sum(r['same_top1'] for r in rows)}/{len(rows)}"
        f" (of those answered partly: {sum(r['same_top1'] for r in partial)}/{len(partial)})"
    )
    for row in rows:
        if not row["same_top1"]:
            print(
                f"    differs: {row['case']} ({row['form']}): first {row['first']},"
                f" whole {row['whole']}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", nargs="*", default=DEFAULT)
    parser.add_argument("--sampled", type=int, default=8, help="sites sampled per package")
    parser.add_argument("--sets", nargs="*", default=["cases", "heldout", "suites"])
    parser.add_argument("--limit", type=int, help="at most this many pastes per part (a trial)")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--timing-only", action="store_true")
    only.add_argument("--accuracy-only", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    print(
        f"load average {load:.1f} on {os.cpu_count()} cores"
        f"{' (a loaded machine: times are high)' if load > (os.cpu_count() or 1) else ''}"
    )
    report: dict[str, Any] = {"load": load}
    compile_errdex()
    if not args.accuracy_only:
        report["timing"] = []
        for spec in args.packages:
            report["timing"].append(time_package(spec, args.sampled, args.limit))
            print_timing(report["timing"][-1:])
        print("\nall packages:")
        print_timing(report["timing"])
    if not args.timing_only:
        report["accuracy"] = run_accuracy(args.sets, args.limit)
        print_accuracy(report["accuracy"])
    (OUT / "results.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
