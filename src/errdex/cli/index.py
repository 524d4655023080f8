"""`errdex index`: index sources into the database, here or on a Dask cluster."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

import click

import errdex
from errdex.cli.output import (
    db_option,
    err,
    fail,
    handle_errors,
    json_option,
    print_json,
    progress_bar,
)
from errdex.indexing import IndexReport
from errdex.indexing.cluster import CONNECT_SECONDS, VersionResult
from errdex.sources.base import VersionInfo

if TYPE_CHECKING:
    from rich.progress import Progress

# The terminal's renderer (and rich under it) is imported where a line is drawn: `--json`
# draws none unless a version fails, and its import is most of the command's start-up
# beside the extractor's.


@click.command()
@click.argument("sources", nargs=-1, metavar="SOURCE...")
@click.option("--installed", is_flag=True, help="Index every distribution installed here.")
@click.option("--project", help="The project name, overriding what metadata says.")
@click.option("--version", "version_label", help="The version label, overriding metadata.")
@click.option(
    "--workers", type=click.IntRange(1, 256), help="Extraction processes (default: all cores)."
)
@click.option("--force", is_flag=True, help="Index a version again even if it is up to date.")
@click.option(
    "--tags",
    "tags",
    metavar="PATTERN",
    help="SOURCE is a git repository: index each tag matching PATTERN (a glob: 'v*'),"
    " oldest first, each as its own version.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Index on the Dask distributed cluster whose scheduler is at ADDRESS"
    " (tcp://HOST:8786): each SOURCE is one task, whose worker writes its version to --db,"
    " which every worker must reach (a postgresql:// URL; a SQLite file only when every"
    " worker runs on this machine). Needs errdex[dask] here and on the workers.",
)
@click.option(
    "--scheduler-timeout",
    type=click.FloatRange(0.1, 3600),
    default=CONNECT_SECONDS,
    show_default=True,
    metavar="SECONDS",
    help="With --scheduler: how long to wait for the scheduler to answer and have a worker.",
)
@db_option
@json_option
@handle_errors
def index(
    sources: tuple[str, ...],
    installed: bool,
    project: str | None,
    version_label: str | None,
    workers: int | None,
    force: bool,
    tags: str | None,
    scheduler: str | None,
    scheduler_timeout: float,
    db: str | None,
    as_json: bool,
) -> None:
    """Index SOURCE: a directory, PATH@REV of a git repository, URL@REV of a remote one
    (only that revision is fetched), a wheel or sdist, NAME==VERSION from the package index,
    or installed:NAME.

    Nothing of the indexed code is imported or run. Each version is written in one
    transaction: an interrupted run leaves the database as it was. Files unchanged since
    an earlier version are not parsed again.

    With --scheduler, the versions are indexed on a Dask cluster, each reported as it
    completes; a version that fails does not stop the others, and the exit status is 2
    when any failed.
    """
    if not sources and not installed:
        raise click.UsageError("give at least one SOURCE, or --installed")
    if tags is not None and version_label is not None:
        raise click.UsageError("--tags names each version by its tag: leave out --version")
    if scheduler is not None:
        if installed:
            raise click.UsageError(
                "--installed indexes what this machine has installed: leave out --scheduler"
            )
        if workers is not None:
            raise click.UsageError(
                "--workers counts this machine's extraction processes; on a cluster each"
                " version is extracted in its task's thread: leave out --workers"
            )
        run = errdex.index_cluster(
            sources,
            scheduler,
            db=db,
            project=project,
            version=version_label,
            force=force,
            tags=tags,
            connect_timeout=scheduler_timeout,
        )
        _report_cluster(run.sources, run.results, as_json)
        return
    shown = _IndexProgress(quiet=as_json)
    try:
        reports = errdex.index(
            sources,
            db=db,
            project=project,
            version=version_label,
            workers=workers,
            force=force,
            tags=tags,
            installed=installed,
            planned=shown.planned,
            started=shown.started,
            finished=shown.finished,
        )
    except KeyboardInterrupt:
        under_way = shown.under_way()
        if under_way is None:
            raise  # while the sources were opened, or after the last: the generic line
        from errdex.render.terminal import interrupted_index

        fail(interrupted_index(shown.done, under_way), 2)
    finally:
        shown.stop()
    if as_json:
        print_json(reports)
    if any(report.error is not None for report in reports):
        sys.exit(2)  # each failed version said why in its line


class _IndexProgress:
    """Each version's progress bar (on a terminal), and its summary once it is done."""

    def __init__(self, *, quiet: bool) -> None:
        self.quiet = quiet
        self.versions: list[VersionInfo] = []
        self.done: list[IndexReport] = []
        self._bar: Progress | None = None

    def under_way(self) -> VersionInfo | None:
        """The version being indexed, or next to be: the first not done."""
        return self.versions[len(self.done)] if len(self.done) < len(self.versions) else None

    def planned(self, versions: list[VersionInfo]) -> None:
        self.versions = versions

    def started(self, info: VersionInfo) -> Callable[[str, int, int], None] | None:
        if self.quiet or not err.is_terminal:
            return None
        from errdex.render.terminal import progress_label

        self._bar = bar = progress_bar("{task.description}")
        bar.start()
        task = bar.add_task(progress_label(f"{info.project} {info.version}"), total=None)

        def advance(stage: str, n: int, total: int) -> None:
            bar.update(task, advance=n, total=total)

        return advance

    def finished(self, report: IndexReport) -> None:
        self.stop()
        self.done.append(report)
        if report.error is not None:  # said with --json too: the one line for a person
            from errdex.render.terminal import failure_line

            err.print(failure_line(report.error), soft_wrap=True)
        elif not self.quiet:
            from errdex.render.terminal import index_summary

            index_summary(report, err)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _report_cluster(
    specs: list[str], results: Generator[VersionResult, None, None], as_json: bool
) -> None:
    """Print each version's result as it comes (under a progress bar on a terminal), then
    the total, or all of them as JSON; exit 2 when any version failed."""
    # the cluster's path imports Dask: the renderer's import costs nothing beside it
    from errdex.render.terminal import cluster_result, cluster_total

    started = time.perf_counter()
    done: list[VersionResult] = []
    try:
        _quiet_dask()
        if as_json or not err.is_terminal:
            for result in results:
                done.append(result)
                if not as_json:
                    cluster_result(result, err)
        else:
            with progress_bar("cluster") as progress:
                task = progress.add_task("versions", total=len(specs))
                for result in results:
                    done.append(result)
                    cluster_result(result, progress.console)
                    progress.advance(task)
    except KeyboardInterrupt:
        fail(
            "interrupted; versions not started yet are cancelled, those already running on a"
            " worker finish (each is written whole or not at all)",
            2,
        )
    finally:
        results.close()  # the client, and with it the tasks not started
    failed = [r for r in done if r.error is not None]
    if as_json:  # in the order of the command line, not of completion
        order = {spec: i for i, spec in reversed(list(enumerate(specs)))}
        done.sort(key=lambda r: order[r.source])
        print_json(done)
    else:
        cluster_total(done, time.perf_counter() - started, err)
    if failed:
        fail(f"{len(failed)} of {len(done)} versions failed", 2)


def _quiet_dask() -> None:
    """Keep Dask's own log (a lost scheduler, reconnecting: tracebacks) off the terminal:
    errdex reports each version's outcome itself, in a line."""
    try:
        import distributed  # noqa: F401  (importing it sets its loggers up: quiet them after)
    except ImportError:
        return  # index_on_cluster says what to install
    names = [n for n in logging.root.manager.loggerDict if n.partition(".")[0] == "distributed"]
    for name in ["distributed", *names]:  # its config gives some children levels of their own
        logging.getLogger(name).setLevel(logging.CRITICAL)
