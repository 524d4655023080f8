"""Where a cold index waits: the phases of each run, and per phase the CPU, the run-queue
wait and the idle cores of every process (the parent, the extraction workers, the writer,
the link workers), for this tree and any older revisions, interleaved.

    python bench/index_timeline.py [REV ...] [--index vllm==0.33.0] [--rounds 1] [--workers N]
                                   [--warm] [--interval 0.005] [--bins 0.25] [--json FILE]

Each REV (a git revision, taken as `before_after.py` takes it) and this working tree index
SPEC in turn, round after round, into new databases with facts caches of their own (cold:
a new cache folder holding only the downloaded archive; with `--warm`, a second run of each
tree reuses its first run's cache). While a run goes, the process tree is read from /proc
every `--interval` seconds: each thread's CPU and run-queue wait in nanoseconds
(`schedstat`), summed per process; the processes errdex leaves behind (the fork server, the
writer of a large version) are adopted and followed to their end. The parent marks its
phases (index begun, pool ready, first and last result of each extraction round, the second
round's choice of files, link begun, each serial step of the link before its per-site part
(`python_twins`, `Namespace`, `_Parts`, `CaughtTexts`, `Translations`, `_Context`, the
workers forked), first and last site, write ended, exit) by wrapping a few functions of the
tree it runs, the same names in old and new revisions.

Per segment between two marks: its seconds, each process's CPU seconds and run-queue wait
(runnable but not running: the machine's other load, or this run's own processes outnumbering
the cores), and the idle core-seconds: the cores this run left unused, summed over the
samples (`cores - CPU rate`, none below zero). On a loaded machine wall times say little;
the idle core-seconds of a phase say how much of it one process ran while the others waited.
The "quiet" column is a load-free bound drawn from the CPU seconds alone: the segment
would take at least its busiest process's CPU, or all its CPU spread over the cores, and
the cores it leaves idle at that are the quiet idle core-seconds (a segment's own stalls and
tail are not in it; the seconds asleep in a pipe, per process, show those). `--bins`
prints each process's share of every bin of that many seconds spent runnable as well.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from before_after import _adopt_orphans, _copy_working_tree, _downloads, _export

# Run in the indexing process: wrap the pipeline's functions to log (time, own CPU, event).
_DRIVER = r"""
import importlib, os, sys, time
_log = open(os.environ["TIMELINE_EVENTS"], "a", buffering=1)
def ev(name):
    _log.write(f"{time.monotonic():.4f} {time.process_time():.3f} {name}\n")
ev("interpreter up")
def marked(results, begins, first, last):
    ev(begins)
    for n, result in enumerate(results):
        if n == 0:
            ev(first)
        yield result
    ev(last)
def around(owner, name, label):
    inner = getattr(owner, name, None)
    if inner is None:
        return
    def wrapped(*a, **k):
        ev(f"{label} begins")
        try:
            return inner(*a, **k)
        finally:
            ev(f"{label} ends")
    setattr(owner, name, wrapped)
par = importlib.import_module("errdex.indexing.parallel")
P = par.ExtractionPool
_map = P._map
def mapped(self, task, items, *rest):
    round_ = f"round {task.__name__} {len(items)} files"
    return marked(_map(self, task, items, *rest), round_, "first result", "last result")
P._map = mapped
around(P, "_start", "pool start")
try:
    pipe = importlib.import_module("errdex.indexing.pipeline")
except ImportError:
    pipe = importlib.import_module("errdex.indexing")
around(pipe, "index_source", "index")
around(pipe, "names_to_keep", "names_to_keep")
around(pipe, "version_names", "version_names")
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
# the link's serial steps before its per-site part (names a revision lacks are skipped)
link = importlib.import_module("errdex.link")
for name in ("python_twins", "Namespace", "_Parts", "CaughtTexts", "Translations", "_Context"):
    around(link, name, f"link {name}")
forked = getattr(link, "forked", None)
if forked is not None:
    around(forked, "forked_map", "link workers forked")
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

_CORES = len(os.sched_getaffinity(0))
# Run-queue waits are counted when a thread is next run, so readings come in lumps: idle
# cores are summed over slices long enough to smooth them.
_IDLE_SLICE = 0.1


Run = dict[str, Any]  # a run's processes, marks, load and cache folder (`run_once`)
Rates = list[tuple[float, float, float, float]]  # (from, to, CPU rate, run-queue wait rate)


def _read(fd: int) -> bytes:
    return os.pread(fd, 1024, 0)


@dataclass
class _Process:
    """One process of the run: what it is, and its samples (seconds from the start, CPU
    and run-queue wait in seconds, summed over its threads)."""

    pid: int
    ppid: int
    command: str  # the last seen: a process started by exec shows its own only after it
    seen: float
    role: str = "?"
    samples: list[tuple[float, float, float]] = field(default_factory=list)
    # what the main thread sleeps in at each sample ("" while it runs): a worker blocked
    # writing its results (`anon_pipe_write`) waits on the parent reading them
    sleeps: list[str] = field(default_factory=list)
    _wchan: int | None = None
    _threads: dict[int, int] = field(default_factory=dict)  # thread id: its schedstat fd
    _last: dict[int, tuple[float, float]] = field(default_factory=dict)  # its last reading
    _gone: tuple[float, float] = (0.0, 0.0)  # the threads that ended: their CPU and wait

    def refresh_threads(self) -> bool:
        """Open the schedstat of threads that began since; False once the process is gone."""
        try:
            # os.listdir: a few times cheaper than Path objects, and this runs every few ms
            tids = {int(t) for t in os.listdir(f"/proc/{self.pid}/task")}  # noqa: PTH208
            self.command = _command(self.pid) or self.command
        except OSError:
            return False
        for tid in tids - self._threads.keys():
            try:
                self._threads[tid] = os.open(f"/proc/{self.pid}/task/{tid}/schedstat", os.O_RDONLY)
            except OSError:
                continue
        return True

    def sample(self, at: float) -> bool:
        for tid, fd in list(self._threads.items()):
            try:
                ran, waited, _ = _read(fd).split()
            except (OSError, ValueError):  # the thread ended: its last reading stays counted
                os.close(fd)
                del self._threads[tid]
                cpu, wait = self._last.pop(tid, (0.0, 0.0))
                self._gone = (self._gone[0] + cpu, self._gone[1] + wait)
                continue
            self._last[tid] = (int(ran) / 1e9, int(waited) / 1e9)
        if not self._threads:
            return False
        try:
            if self._wchan is None:
                self._wchan = os.open(f"/proc/{self.pid}/wchan", os.O_RDONLY)
            sleep = _read(self._wchan).decode()
        except OSError:
            sleep = ""
        self.sleeps.append("" if sleep == "0" else sleep)
        cpu = self._gone[0] + sum(ran for ran, _ in self._last.values())
        wait = self._gone[1] + sum(waited for _, waited in self._last.values())
        self.samples.append((at, cpu, wait))
        return True

    def close(self) -> None:
        for fd in self._threads.values():
            os.close(fd)
        self._threads.clear()
        if self._wchan is not None:
            os.close(self._wchan)
            self._wchan = None


def _command(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def _parent_and_command(pid: int) -> tuple[int, str] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        command = _command(pid)
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2 :].split()[1]), command


def _name_roles(
    root: int, processes: list[_Process], marks: list[tuple[float, float, str]]
) -> None:
    """parent; the fork server and resource tracker it starts; link workers (forked from
    it, so with its command line); the fork server's children: extraction workers, and
    the writer (one started after the extraction rounds began their second)."""
    again = min((at for at, _, name in marks if "extract_again" in name), default=float("inf"))
    servers = {proc.pid for proc in processes if "forkserver" in proc.command and proc.ppid == root}
    for proc in processes:
        if proc.pid == root:
            proc.role = "parent"
        elif proc.pid in servers:
            proc.role = "forkserver"
        elif proc.ppid in servers:  # forked from it, so with its command line
            proc.role = "writer" if proc.seen > again else "worker"
        elif "resource_tracker" in proc.command:
            proc.role = "tracker"
        elif proc.ppid == root:
            proc.role = "link worker"


def run_once(
    tree: Path, spec: str, work: Path, workers: int | None, cache: Path | None, interval: float
) -> Run:
    """One `errdex index SPEC --json` of `tree`, sampled; its events and processes."""
    if cache is None:
        cache = _cold_cache(spec, work)
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
    _adopt_orphans()
    load = os.getloadavg()[0]
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    root = process.pid
    family = {os.getpid()}  # orphans of the run come to this process (`_adopt_orphans`)
    tracked: dict[int, _Process] = {}
    ended: list[_Process] = []
    ignored: set[int] = set()
    tick = 0
    returncode: int | None = None
    while True:
        at = time.monotonic() - started
        if tick % 4 == 0:  # new processes and threads, every few samples
            for name in os.listdir("/proc"):  # noqa: PTH208 (as above)
                if not name.isdigit() or int(name) in ignored or int(name) in tracked:
                    continue
                pid = int(name)
                found = _parent_and_command(pid)
                if found is None or (pid != root and found[0] not in family):
                    ignored.add(pid)
                    continue
                family.add(pid)
                tracked[pid] = _Process(pid, *found, seen=at)
            for proc in list(tracked.values()):
                if not proc.refresh_threads():
                    proc.close()
                    ended.append(tracked.pop(proc.pid))
        for proc in list(tracked.values()):
            if not proc.sample(at):
                proc.close()
                ended.append(tracked.pop(proc.pid))
        with_children = True
        while with_children:  # reap the run's processes, the adopted ones included
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            with_children = pid != 0
            if pid == root:
                returncode = os.waitstatus_to_exitcode(status)
        if returncode is not None and not tracked:
            break
        tick += 1
        time.sleep(interval)
    if returncode != 0:
        raise SystemExit(f"{tree}: errdex index failed ({returncode})")
    marks = []
    for line in events.read_text().splitlines():
        at_text, cpu, name = line.split(" ", 2)
        marks.append((float(at_text) - started, float(cpu), name))
    processes = sorted(ended, key=lambda proc: (proc.seen, proc.pid))
    _name_roles(root, processes, marks)
    return {
        "processes": processes,
        "marks": marks,
        "load": (load, os.getloadavg()[0]),
        "cache": cache,
    }


def _cold_cache(spec: str, work: Path) -> Path:
    """A new cache folder whose downloads hold only SPEC's archives and their records, linked
    (or copied) from errdex's downloads: nothing extracted, nothing else listed."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=work))
    name, _, version = spec.partition("==")
    # archives are named as the project spells itself (SQLAlchemy-2.0.30.tar.gz)
    stem = f"{name.replace('-', '_')}-{version}".lower()
    source = _downloads()
    for found in (*source.iterdir(), *source.glob(".*/*")):
        if not found.is_file() or not found.name.lower().startswith((f"{stem}-", f"{stem}.")):
            continue
        target = cache / "downloads" / found.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(found, target)
        except OSError:
            shutil.copy2(found, target)
    return cache


def _segments(run: Run) -> list[tuple[str, float, float]]:
    marks = [(0.0, 0.0, "start"), *run["marks"]]
    end = max(proc.samples[-1][0] for proc in run["processes"] if proc.samples)
    spans = []
    for i, (start, _, mark) in enumerate(marks):
        stop = marks[i + 1][0] if i + 1 < len(marks) else end
        spans.append((mark, start, max(start, stop)))
    return spans


def _rates(proc: _Process) -> Rates:
    """(from, to, CPU rate, wait rate) between consecutive samples."""
    return [
        (a[0], b[0], (b[1] - a[1]) / (b[0] - a[0]), (b[2] - a[2]) / (b[0] - a[0]))
        for a, b in zip(proc.samples, proc.samples[1:], strict=False)
        if b[0] > a[0]
    ]


def _within(rates: Rates, start: float, stop: float) -> tuple[float, float]:
    """CPU and wait seconds of the rates' intervals overlapping [start, stop)."""
    cpu = wait = 0.0
    for a, b, ran, waited in rates:
        overlap = min(b, stop) - max(a, start)
        if overlap > 0:
            cpu += ran * overlap
            wait += waited * overlap
    return cpu, wait


def _asleep(proc: _Process, rates: Rates, start: float, stop: float) -> dict[str, float]:
    """Seconds within [start, stop) the process slept, by where its main thread slept
    (as read at the end of each interval between samples)."""
    asleep: collections.defaultdict[str, float] = collections.defaultdict(float)
    for (a, b, ran, waited), why in zip(rates, proc.sleeps[1:], strict=False):
        overlap = min(b, stop) - max(a, start)
        if overlap > 0 and why:
            asleep[why] += overlap * max(0.0, 1 - ran - waited)
    return asleep


def _idle(rates: list[Rates], start: float, stop: float, step: float) -> float:
    """Core-seconds within [start, stop) that no process of the run wanted, by `step`
    slices: a process wants a core while it runs or waits in the run queue, so the figure
    is the one a quiet machine would leave idle, whatever the load."""
    idle, at = 0.0, start
    while at < stop:
        until = min(stop, at + step)
        wanted = sum(sum(_within(r, at, until)) for r in rates)
        idle += max(0.0, _CORES * (until - at) - wanted)
        at = until
    return idle


def _label(run: Run) -> dict[int, str]:
    """Each process's short name: its role and, among several of one role, a number."""
    counts: collections.Counter[str] = collections.Counter()
    names = {}
    for proc in run["processes"]:
        counts[proc.role] += 1
        names[proc.pid] = proc.role if proc.role == "parent" else f"{proc.role} {counts[proc.role]}"
    return names


def report(name: str, run: Run, bins: float | None) -> dict[str, Any]:
    """The run's marks, then per segment each process's CPU and wait and the idle cores."""
    labels = _label(run)
    rates = {proc.pid: _rates(proc) for proc in run["processes"]}
    segments = _segments(run)
    end = segments[-1][2]
    load = "{:.1f} -> {:.1f}".format(*run["load"])
    print(f"\n{name}: {end:.2f} s, load average {load}, {_CORES} cores")
    print(
        f"  {'segment (from the mark)':30} {'at':>6} {'s':>5} {'idle':>5} {'quiet':>5}"
        f" {'idle':>5}  CPU s / wait s, seconds asleep and where"
    )
    rows: list[dict[str, Any]] = []
    for mark, start, stop in segments:
        parts = []
        cpus = []
        for proc in run["processes"]:
            cpu, wait = _within(rates[proc.pid], start, stop)
            cpus.append(cpu)
            if cpu + wait >= 0.01:
                asleep = _asleep(proc, rates[proc.pid], start, stop)
                most = sorted(asleep.items(), key=lambda item: -item[1])[:2]
                on = "".join(f" {s:.2f} {why}" for why, s in most if s >= 0.01)
                parts.append(f"{labels[proc.pid]} {cpu:.2f}/{wait:.2f}{on}")
        idle = _idle(list(rates.values()), start, stop, _IDLE_SLICE)
        # on a quiet machine, at best: the busiest process alone, or every core busy
        quiet = max(max(cpus, default=0.0), sum(cpus) / _CORES)
        quiet_idle = _CORES * quiet - sum(cpus)
        rows.append(
            {
                "mark": mark,
                "at": start,
                "seconds": stop - start,
                "idle": idle,
                "quiet": quiet,
                "quiet_idle": quiet_idle,
            }
        )
        print(
            f"  {mark[:30]:30} {start:6.2f} {stop - start:5.2f} {idle:5.2f} {quiet:5.2f}"
            f" {quiet_idle:5.2f}  " + "; ".join(parts)
        )
    totals = {labels[p.pid]: _within(rates[p.pid], 0, end) for p in run["processes"]}
    cpu_sum = sum(cpu for cpu, _ in totals.values())
    wait_sum = sum(wait for _, wait in totals.values())
    idle_sum = sum(row["idle"] for row in rows)
    quiet_sum = sum(row["quiet"] for row in rows)
    print(
        f"  in all: {end:.2f} s, CPU {cpu_sum:.2f} s, run-queue wait {wait_sum:.2f} s,"
        f" idle {idle_sum:.2f} core-s of {_CORES * end:.2f} (nothing runnable);"
        f" quiet: {quiet_sum:.2f} s, idle {_CORES * quiet_sum - cpu_sum:.2f} core-s"
    )
    shown = ", ".join(f"{who} {cpu:.2f}" for who, (cpu, _) in totals.items() if cpu >= 0.01)
    print(f"  CPU by process: {shown}")
    if bins:
        _print_bins(run, labels, rates, end, bins)
    return {
        "name": name,
        "seconds": end,
        "cpu": cpu_sum,
        "wait": wait_sum,
        "idle": idle_sum,
        "quiet": quiet_sum,
        "load": run["load"],
        "segments": rows,
        "processes": {labels[p.pid]: p.samples for p in run["processes"]},
        "marks": run["marks"],
    }


def _print_bins(
    run: Run, labels: dict[int, str], rates: dict[int, Rates], end: float, step: float
) -> None:
    """Per bin, each process's share of it runnable (running or in the run queue), and
    the cores none wanted."""
    shown = [p for p in run["processes"] if _within(rates[p.pid], 0, end)[0] >= 0.05]
    print("  runnable" + "".join(f"{labels[p.pid][:11]:>12}" for p in shown) + "   idle")
    at = 0.0
    while at < end:
        until = min(end, at + step)
        wants = [sum(_within(rates[p.pid], at, until)) / (until - at) for p in shown]
        idle = max(0.0, _CORES - sum(wants))
        print(f"  {at:8.2f}" + "".join(f"{w:12.0%}" for w in wants) + f"  {idle:5.2f}")
        at = until


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("revs", nargs="*", help="git revisions to run beside this working tree")
    parser.add_argument("--index", default="vllm==0.33.0", help="what to index")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, help="errdex index --workers")
    parser.add_argument("--warm", action="store_true", help="index again from a warm cache")
    parser.add_argument("--interval", type=float, default=0.005, help="seconds between samples")
    parser.add_argument("--bins", type=float, help="print CPU shares per bin of these seconds")
    parser.add_argument("--json", type=Path, help="write every run's figures and samples here")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="timeline-") as tmp:
        work = Path(tmp)
        trees = {rev: _export(rev, work / f"rev-{i}") for i, rev in enumerate(args.revs)}
        trees["this tree"] = _copy_working_tree(work / "this")
        for round_ in range(args.rounds):
            order = list(trees.items()) if round_ % 2 == 0 else list(reversed(trees.items()))
            for name, tree in order:
                run = run_once(tree, args.index, work, args.workers, None, args.interval)
                title = f"round {round_ + 1}, {name}, cold"
                results.append(report(title, run, args.bins))
                if args.warm:
                    warm = run_once(
                        tree, args.index, work, args.workers, run["cache"], args.interval
                    )
                    title = f"round {round_ + 1}, {name}, warm"
                    results.append(report(title, warm, args.bins))
    if args.json:
        args.json.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
