"""Index time and lookup speed of an older revision beside the code as it is, in one run.

    python bench/before_after.py REV [--index vllm==0.33.0] [--rounds 2] [--lookup [--packages ...]]
                                 [--instructions EVERY]
    python bench/before_after.py REV --pages DB [--count 300] [--rounds 4]

REV is any git revision of this repository (the "before"); the "after" is this working
tree, copied at the start (edits made during the run do not reach it). The before's `src/`
and `bench/lookup_speed.py` are taken from git (`git archive`) into a temporary folder.
Each tree runs in processes of its own with `PYTHONPATH` set to its `src/`, so nothing is
installed; both trees are byte-compiled first, as pip compiles what it installs. The two
trees alternate within each round, so a load that comes and goes falls on both alike.

- index: `errdex index SPEC --json` into a new database, with a facts cache of its own
  (cold: every file extracted) but the downloads of errdex's cache (no network time); wall
  and CPU seconds, and the seconds of each phase (read, extract, again, link, write).
- with `--instructions EVERY`: the instructions (valgrind's callgrind, which a shared
  machine's load does not change) each tree executes to extract every EVERY-th Python file
  of SPEC's wheel in one process, less those of the same process extracting none (its
  imports), and their ratio.
- with `--lookup`: each tree's own `bench/lookup_speed.py` over `--packages` (default: its
  own list), indexed anew by each tree; its p50/p90/p99 and 1 MB figures (it indexes
  several large packages per tree: a long run).

- with `--pages DB` (instead of the index): the cost of an error page in each tree, in a
  process of its own over the same `--count` random ids of DB (an index both trees read),
  each page built once (cold): the page model the JSON draws (`build_page`), and what the
  HTML adds to it (`page_context`: the highlighted snippet, the project's newest version);
  p50/p90/p99 in ms, without HTTP, so that the code's share of a cold page is seen apart
  from the client and loopback.

Prints each round as it ends, then one comparison: the minimum wall time of each tree over
the rounds and their ratio (on a loaded machine wall times are noise; the minimum says
more, and the load average before and after is printed beside it), and whether both made
the same number of sites. CPU seconds count every process of a run: this script adopts
the processes errdex leaves behind (the fork server, which waits for the extraction workers
and the writer of a large version) and waits for them, so their CPU is counted too.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _export(rev: str, into: Path) -> Path:
    """The revision's `src/` and `bench/lookup_speed.py` under `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src", "bench/lookup_speed.py"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return _byte_compiled(into)


def _copy_working_tree(into: Path) -> Path:
    """This working tree's `src/` and `bench/lookup_speed.py` under `into`."""
    shutil.copytree(ROOT / "src", into / "src", ignore=shutil.ignore_patterns("__pycache__"))
    (into / "bench").mkdir(parents=True)
    shutil.copy2(HERE / "lookup_speed.py", into / "bench" / "lookup_speed.py")
    return _byte_compiled(into)


def _byte_compiled(tree: Path) -> Path:
    """The tree with its `src/` byte-compiled, as pip compiles a package it installs.

    Otherwise a run under PYTHONDONTWRITEBYTECODE (or from a read-only copy) compiles every
    module from source in every process it starts (the parent, each extraction worker, the
    writer), a cost no installed errdex pays and one that grows with the tree's size, so
    it would weigh on the larger tree alone."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(tree / "src")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return tree


def _downloads() -> Path:
    configured = os.environ.get("ERRDEX_CACHE")
    if configured:
        return Path(configured) / "downloads"
    import platformdirs

    return Path(platformdirs.user_cache_dir("errdex")) / "downloads"


def _env(tree: Path, cache: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree / "src"), "ERRDEX_CACHE": str(cache)}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _adopt_orphans() -> None:
    """Become the parent of the processes a run's errdex leaves when it exits (its fork
    server), so that waiting for them counts their CPU and their children's (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def _wait_orphans() -> None:
    """Wait for every process left from the run (none other runs meanwhile)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


_Run = tuple[float, float, str, dict[str, float]]


def index_once(tree: Path, spec: str, work: Path, workers: int | None) -> _Run:
    """Wall and CPU seconds of a cold `errdex index SPEC`, its site count, its phases."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=work))
    (cache / "downloads").symlink_to(_downloads(), target_is_directory=True)
    db = cache / "index.db"
    command = [sys.executable, "-m", "errdex", "index", spec, "--db", str(db), "--json"]
    if workers is not None:
        command += ["--workers", str(workers)]
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(command, env=_env(tree, cache), capture_output=True, text=True)
    wall = time.perf_counter() - started
    _wait_orphans()
    cpu = _children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{tree}: errdex index failed: {done.stderr.strip()[-400:]}")
    report = json.loads(done.stdout)
    report = report[0] if isinstance(report, list) else report
    return wall, cpu, str(report["sites"]), dict(report.get("timings") or {})


# Run in the tree's process: extract every EVERY-th Python file of a wheel (none for the
# baseline of imports alone).
_EXTRACT_SLICE = r"""
import sys, zipfile
from errdex.extract import extract_file
every = int(sys.argv[2])
with zipfile.ZipFile(sys.argv[1]) as wheel:
    names = sorted(n for n in wheel.namelist() if n.endswith(".py"))
    for name in names[::every] if every else ():
        extract_file(name, wheel.read(name))
"""


def instructions(tree: Path, wheel: Path, every: int, work: Path) -> int:
    """Instructions callgrind counts for extracting every `every`-th file of `wheel`
    (`every` 0: none, the imports alone)."""
    out = work / f"callgrind.{os.getpid()}.{every}"
    command = [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
        sys.executable, "-c", _EXTRACT_SLICE, str(wheel), str(every),
    ]  # fmt: skip
    subprocess.run(command, env=_env(tree, work), check=True, capture_output=True)
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise SystemExit(f"no instruction count in {out}")


def compare_instructions(trees: dict[str, Path], spec: str, every: int, work: Path) -> None:
    """Each tree's instructions for extracting a slice of `spec`'s wheel, and the ratio."""
    name, _, version = spec.partition("==")
    stem = f"{name.replace('-', '_')}-{version}-"
    wheel = next(p for p in sorted(_downloads().glob(f"{stem}*.whl")))
    counts = {}
    for label, tree in trees.items():
        counts[label] = instructions(tree, wheel, every, work) - instructions(tree, wheel, 0, work)
    print(f"\nextracting every {every}th file of {wheel.name}, instructions (callgrind):")
    for label, count in counts.items():
        print(f"  {label:6} {count / 1e9:8.2f} G")
    print(f"  after/before: {counts['after'] / counts['before']:.3f}")


def lookup_once(tree: Path, packages: list[str], work: Path) -> list[str]:
    """The figures `bench/lookup_speed.py` of that tree prints."""
    db = Path(tempfile.mkdtemp(prefix="lookup-", dir=work)) / "speed.db"
    command = [sys.executable, str(tree / "bench" / "lookup_speed.py"), "--db", str(db)]
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [*command, "--packages", *packages], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: lookup_speed failed: {done.stderr.strip()[-400:]}")
    return done.stdout.strip().splitlines()


_PAGE_COST = """
import json, random, sys, time
from errdex.explain import build_page
from errdex.store import open_store
from errdex.web.pages import page_context
store = open_store(sys.argv[1])
ids = sorted({s.id for s in store.list_sites()})
random.Random(int(sys.argv[3])).shuffle(ids)
build, html = [], []
for error_id in ids[: int(sys.argv[2])]:
    started = time.perf_counter()
    page = build_page(store, error_id, None)
    built = time.perf_counter()
    page_context(store, page)
    build.append((built - started) * 1000)
    html.append((time.perf_counter() - built) * 1000)
print(json.dumps({"build": build, "html": html}))
"""


def pages_once(tree: Path, db: Path, count: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds per page, cold, in a new process of that tree."""
    done = subprocess.run(
        [sys.executable, "-c", _PAGE_COST, str(db), str(count), str(seed)],
        env={**os.environ, "PYTHONPATH": str(tree / "src")},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: pages failed: {done.stderr.strip()[-400:]}")
    result: dict[str, list[float]] = json.loads(done.stdout)
    return result


def _quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    at = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.9, 0.99)]
    return " / ".join(f"{v:.1f}" for v in at)


def compare_pages(trees: dict[str, Path], db: Path, count: int, rounds: int) -> None:
    """Each tree's page cost per round (the same ids in a round), trees alternating."""
    print(f"pages of {db.name}: {count} random ids per round, p50 / p90 / p99 ms")
    every: dict[str, dict[str, list[float]]] = {n: {"build": [], "html": []} for n in trees}
    for round_ in range(rounds):
        for name, tree in trees.items() if round_ % 2 == 0 else reversed(trees.items()):
            found = pages_once(tree, db, count, seed=round_)
            for part, values in found.items():
                every[name][part].extend(values)
            print(
                f"round {round_ + 1} {name}: model {_quantiles(found['build'])},"
                f" HTML adds {_quantiles(found['html'])}",
                flush=True,
            )
    for name, parts in every.items():
        print(
            f"  {name:6} model {_quantiles(parts['build'])}; HTML adds {_quantiles(parts['html'])}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("rev", help="the git revision to compare with (the before)")
    parser.add_argument("--index", default="vllm==0.33.0", help="what to index cold")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--packages",
        nargs="*",
        default=None,
        help="lookup_speed's packages (default: its own list)",
    )
    parser.add_argument(
        "--workers", type=int, help="errdex index --workers (1: all CPU in one process)"
    )
    parser.add_argument(
        "--lookup", action="store_true", help="also compare bench/lookup_speed.py (long)"
    )
    parser.add_argument("--pages", type=Path, help="compare error pages of this index instead")
    parser.add_argument(
        "--instructions", type=int, metavar="EVERY", help="also count extraction's instructions"
    )
    parser.add_argument("--count", type=int, default=300, help="--pages: ids per round")
    args = parser.parse_args()
    _adopt_orphans()
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores; {args.rounds} rounds", flush=True)
    with tempfile.TemporaryDirectory(prefix="before-after-") as tmp:
        work = Path(tmp)
        trees = {
            "before": _export(args.rev, work / "before"),
            "after": _copy_working_tree(work / "after"),
        }
        if args.pages is not None:
            compare_pages(trees, args.pages, args.count, args.rounds)
            return
        if args.instructions:
            compare_instructions(trees, args.index, args.instructions, work)
        index: dict[str, list[_Run]] = {name: [] for name in trees}
        for round_ in range(args.rounds):
            for name, tree in trees.items() if round_ % 2 == 0 else reversed(trees.items()):
                index[name].append(index_once(tree, args.index, work, args.workers))
                wall, cpu, sites, phases = index[name][-1]
                laps = ", ".join(f"{k} {v:.2f}" for k, v in phases.items())
                print(
                    f"round {round_ + 1} {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, {sites} sites"
                    f" ({laps})",
                    flush=True,
                )
        if args.rounds > 0:  # `--rounds 0 --instructions N`: the instructions alone
            _print_index_comparison(args.rev, args.index, index)
        if not args.lookup:
            return
        for name, tree in trees.items():
            packages = args.packages
            if packages is None:
                packages = _default_packages(tree)
            print(f"\nlookup_speed, {name}:")
            for line in lookup_once(tree, packages, work):
                print(f"  {line}")


def _print_index_comparison(rev: str, spec: str, index: dict[str, list[_Run]]) -> None:
    """One table: each tree's wall and CPU seconds per round, their minimum, each phase's
    minimum, and the ratio."""
    print(f"\nerrdex index {spec}, cold facts cache (before: {rev}; after: this working tree)")
    print(f"  {'':6} {'wall s per round':>24} {'min':>7} {'CPU s min':>10} {'sites':>7}")
    for name, runs in index.items():
        walls = ", ".join(f"{run[0]:.1f}" for run in runs)
        phases = {k: min(run[3].get(k, 0.0) for run in runs) for k in runs[0][3]}
        laps = ", ".join(f"{k} {v:.2f}" for k, v in phases.items())
        print(
            f"  {name:6} {walls:>24} {min(run[0] for run in runs):>7.1f}"
            f" {min(run[1] for run in runs):>10.1f} {runs[0][2]:>7}  min phases: {laps}"
        )
    before = min(run[0] for run in index["before"])
    after = min(run[0] for run in index["after"])
    same = {runs[0][2] for runs in index.values()}
    print(
        f"  after/before (min wall): {after / before:.2f}"
        f" ({'faster' if after < before else 'slower'} by {abs(after - before):.1f} s);"
        f" {'the same site count' if len(same) == 1 else 'site counts differ'};"
        f" load average now {os.getloadavg()[0]:.1f}"
    )


def _default_packages(tree: Path) -> list[str]:
    """The packages the tree's own lookup_speed.py indexes by default."""
    text = (tree / "bench" / "lookup_speed.py").read_text()
    block = text.split("DEFAULT_PACKAGES = [", 1)[1].split("]", 1)[0]
    return [line.strip().strip(",").strip('"') for line in block.splitlines() if line.strip()]


if __name__ == "__main__":
    main()
