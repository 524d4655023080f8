"""Where a cold index spends its time: the phases of each run, and per phase the CPU and the
share of time runnable of every process (the parent, the extraction workers, the writer).

    python bench/index_timeline.py [REV ...] [--index vllm==0.33.0] [--rounds 1] [--workers N]
                                   [--warm]

Each REV (a git revision, taken as `before_after.py` takes it) and this working tree index
SPEC in turn, round after round, into new databases with facts caches of their own (cold;
with `--warm`, a second run of each tree reuses its first run's cache). While a run goes, the
process tree is read from /proc every 50 ms: each process's CPU seconds and whether it is
runnable (R) or asleep (S). The parent marks its phases (pool started, first and last
result of each extraction round, link begun, first and last site, write ended, exit) by
wrapping a few functions of the tree it runs, the same names in old and new revisions.

On a loaded machine wall times say little; the CPU per phase and the runnable shares do:
a process asleep while another waits on it is time the pipeline loses whatever the load.
The totals count every process, the writer and the workers included (which `before_after`'s
CPU, from the processes errdex waits for, leaves out).
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from before_after import _copy_working_tree, _downloads, _export

_TICK = os.sysconf("SC_CLK_TCK")

# Run in the indexing process: wrap the pipeline's functions to log (time, own CPU, event).
_DRIVER = r"""
import importlib, os, sys, time
_log = open(os.environ["TIMELINE_EVENTS"], "a", buffering=1)
def ev(name):
    _log.write(f"{time.time():.4f} {time.process_time():.3f} {name}\n")
def marked(results, begins, first, last):
    ev(begins)
    for n, result in enumerate(results):
        if n == 0:
            ev(first)
        yield result
    ev(last)
par = importlib.import_module("errdex.indexing.parallel")
P = par.ExtractionPool
_map = P._map
def mapped(self, task, items, *rest):
    round_ = f"round {task.__name__} {len(items)} files"
    return marked(_map(self, task, items, *rest), round_, "first result", "last result")
P._map = mapped
try:
    pipe = importlib.import_module("errdex.indexing.pipeline")
except ImportError:
    pipe = importlib.import_module("errdex.indexing")
if hasattr(pipe, "link_sites"):
    _sites = pipe.link_sites
    def linked(*a, **k):
        return marked(_sites(*a, **k), "link begins", "first site", "last site")
    pipe.link_sites = linked
else:
    _version = pipe.link_version
    def linked_version(*a, **k):
        ev("link begins"); sites = _version(*a, **k); ev("last site"); return sites
    pipe.link_version = linked_version
store = importlib.import_module("errdex.store.sqlite").SqliteStore
for name in ("write_version", "write_version_aside"):
    if hasattr(store, name):
        def wrote(self, *a, _write=getattr(store, name), **k):
            result = _write(self, *a, **k); ev("write ends"); return result
        setattr(store, name, wrote)
import atexit
atexit.register(ev, "exit begins")
ev("hooked")
from errdex.cli import main
sys.argv = ["errdex", *sys.argv[1:]]
main()
"""

Sample = tuple[float, int, int, str, float]  # (seconds from start, pid, parent pid, state, CPU)


def _stat(pid: str) -> tuple[int, str, float] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], (int(fields[11]) + int(fields[12])) / _TICK


def _sample(root: int, started: float) -> list[Sample]:
    """The state and CPU of `root` and its descendants now."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (row := _stat(entry.name)) is not None:
            table[int(entry.name)] = row
    family, grew = {root}, True
    while grew:
        grew = False
        for pid, (ppid, _, _) in table.items():
            if ppid in family and pid not in family:
                family.add(pid)
                grew = True
    now = time.time() - started
    return [(now, pid, *table[pid]) for pid in family if pid in table]


def run_once(tree: Path, spec: str, work: Path, workers: int | None, cache: Path | None) -> dict:
    """One `errdex index SPEC --json` of `tree`, sampled; its events and samples."""
    if cache is None:
        cache = Path(tempfile.mkdtemp(prefix="cache-", dir=work))
        (cache / "downloads").symlink_to(_downloads(), target_is_directory=True)
    db = Path(tempfile.mkdtemp(prefix="db-", dir=work)) / "index.db"
    events = db.with_name("events")
    command = [sys.executable, "-c", _DRIVER, "index", spec, "--db", str(db), "--json"]
    if workers is not None:
        command += ["--workers", str(workers)]
    env = {
        **os.environ,
        "PYTHONPATH": str(tree / "src"),
        "ERRDEX_CACHE": str(cache),
        "TIMELINE_EVENTS": str(events),
    }
    load = os.getloadavg()[0]
    started = time.time()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    samples: list[Sample] = []
    while process.poll() is None:
        samples.extend(_sample(process.pid, started))
        time.sleep(0.05)
    if process.returncode != 0:
        raise SystemExit(f"{tree}: errdex index failed ({process.returncode})")
    marks = []
    for line in events.read_text().splitlines():
        at, cpu, name = line.split(" ", 2)
        marks.append((float(at) - started, float(cpu), name))
    return {
        "root": process.pid,
        "samples": samples,
        "marks": marks,
        "load": (load, os.getloadavg()[0]),
        "cache": cache,
    }


def _roles(run: dict) -> dict[int, str]:
    """parent, forkserver, worker (a forkserver child made before the last result), writer."""
    first_seen: dict[int, tuple[float, int]] = {}
    for at, pid, ppid, _, _ in run["samples"]:
        first_seen.setdefault(pid, (at, ppid))
    last_result = max((at for at, _, name in run["marks"] if name == "last result"), default=0)
    roles = {run["root"]: "parent"}
    for pid, (_, ppid) in first_seen.items():
        if ppid == run["root"] and pid != run["root"]:
            roles[pid] = "helper"  # the fork server or the resource tracker
    for pid, (at, ppid) in first_seen.items():
        if roles.get(ppid) == "helper":
            roles[pid] = "worker" if at <= last_result else "writer"
    return roles


def report(name: str, run: dict) -> None:
    """The run's marks, then per phase each process's CPU and runnable share."""
    roles = _roles(run)
    rows: dict[int, list[tuple[float, str, float]]] = collections.defaultdict(list)
    for at, pid, _, state, cpu in run["samples"]:
        rows[pid].append((at, state, cpu))
    end = max(at for at, *_ in run["samples"])
    load = "{:.1f} -> {:.1f}".format(*run["load"])
    print(f"\n{name}: {end:.2f} s, load average {load}")
    marks = [(0.0, 0.0, "start"), *run["marks"]]
    for at, cpu, mark in marks[1:]:
        print(f"  {at:7.2f} s  parent CPU {cpu:6.2f} s  {mark}")
    print(f"  {'phase (from the mark)':28} {'s':>6}  CPU s and runnable share per process")
    totals: collections.Counter[str] = collections.Counter()
    for i, (start, _, mark) in enumerate(marks):
        stop = marks[i + 1][0] if i + 1 < len(marks) else end + 0.05
        parts = []
        for pid, samples in sorted(rows.items(), key=lambda item: item[1][0][0]):
            inside = [s for s in samples if start <= s[0] < stop]
            if not inside or (roles.get(pid, "helper") == "helper" and samples[-1][2] < 0.3):
                continue
            before = [s for s in samples if s[0] < start]
            cpu = inside[-1][2] - (before[-1][2] if before else inside[0][2])
            runnable = sum(1 for s in inside if s[1] == "R") / len(inside)
            parts.append(f"{roles.get(pid, '?')} {cpu:.2f} R{runnable:.0%}")
        print(f"  {mark[:28]:28} {stop - start:6.2f}  " + "; ".join(parts))
    for pid, samples in rows.items():
        totals[roles.get(pid, "?")] += samples[-1][2] - samples[0][2]
    shown = ", ".join(f"{role} {cpu:.2f}" for role, cpu in sorted(totals.items()))
    print(f"  CPU s in all: {sum(totals.values()):.2f} ({shown})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("revs", nargs="*", help="git revisions to run beside this working tree")
    parser.add_argument("--index", default="vllm==0.33.0", help="what to index")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, help="errdex index --workers")
    parser.add_argument("--warm", action="store_true", help="index again from a warm cache")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="timeline-") as tmp:
        work = Path(tmp)
        trees = {rev: _export(rev, work / f"rev-{i}") for i, rev in enumerate(args.revs)}
        trees["this tree"] = _copy_working_tree(work / "this")
        for round_ in range(args.rounds):
            order = list(trees.items()) if round_ % 2 == 0 else list(reversed(trees.items()))
            for name, tree in order:
                run = run_once(tree, args.index, work, args.workers, None)
                report(f"round {round_ + 1}, {name}, cold", run)
                if args.warm:
                    warm = run_once(tree, args.index, work, args.workers, run["cache"])
                    report(f"round {round_ + 1}, {name}, warm", warm)


if __name__ == "__main__":
    main()
