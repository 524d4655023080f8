"""The `errdex` command: each subcommand calls one library function and prints its result.

The library raises `ErrdexError`s; this module turns them into one line on stderr and an
exit code (1: nothing found, 2: bad input or a failed run).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import errdex
from errdex.errors import ErrdexError, NotFoundError, SourceError
from errdex.explain import build_page
from errdex.explain.advice import fill_values
from errdex.explain.model.client import ChatClient
from errdex.explain.model.enrich import EnrichReport, enrich_error, enrich_version
from errdex.history import diff_markdown
from errdex.history.gate import diff_revisions, parse_fail_on, tripped
from errdex.indexing import IndexReport, index_source
from errdex.indexing.cluster import CONNECT_SECONDS, VersionResult, index_on_cluster
from errdex.match.answer import answer_paste, complete_answer, may_index
from errdex.match.paste import parse_paste
from errdex.render.console import InertConsole, write_lines
from errdex.render.diff_terminal import diff_view
from errdex.render.json import encode_for_terminal
from errdex.render.page_terminal import page_view
from errdex.render.safe_text import safe_line, safe_text
from errdex.render.terminal import (
    cluster_result,
    cluster_total,
    failure_line,
    index_summary,
    interrupted_index,
    lookup_view,
    nearest_view,
    note_line,
    progress_label,
    site_lines,
)
from errdex.sources import installed_all, list_tags, open_sources
from errdex.sources.base import Source
from errdex.store import Store, open_store

F = TypeVar("F", bound=Callable[..., Any])

_out = InertConsole()
_err = InertConsole(stderr=True)


def _fail(message: str, code: int) -> None:
    _err.print(failure_line(message), soft_wrap=True)
    sys.exit(code)


def handle_errors(func: F) -> F:
    """Turn errdex's own errors and Ctrl-C into one line on stderr and an exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ErrdexError as error:
            _fail(str(error), error.exit_code)
        except KeyboardInterrupt:  # a write under way is one transaction: all or nothing
            _fail("interrupted; whatever was being written was not, what was written stays", 2)
        except BrokenPipeError:
            sys.stderr.close()  # `errdex list | head`: the reader left, nothing to say
        return None

    return wrapper  # type: ignore[return-value]


db_option = click.option(
    "--db",
    "db",
    envvar="ERRDEX_DB",
    metavar="PATH|URL",
    help="The database: a SQLite file path or a postgresql:// URL"
    " (default: $ERRDEX_DB, else a SQLite file in the user data folder).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")


@contextmanager
def _store(db: str | None, *, create: bool = False) -> Iterator[Store]:
    """The store at `db`; only a command that writes versions (`create`) makes a new one."""
    store = open_store(db, create=create)
    try:
        yield store
    finally:
        store.close()


def _print_json(record: Any) -> None:
    sys.stdout.write(encode_for_terminal(record) + "\n")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="errdex")
def main() -> None:
    """errdex: an index of every error a Python codebase can raise."""


@main.command()
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
        specs = [s for spec in sources for s in (_tag_specs(spec, tags) if tags else [spec])]
        results = index_on_cluster(
            specs,
            scheduler,
            db,
            project=project,
            version=version_label,
            force=force,
            connect_timeout=scheduler_timeout,
        )
        _report_cluster(specs, results, as_json)
        return
    resolved: list[Source] = []
    for spec in sources:
        if tags is not None:
            resolved.extend(_tag_sources(spec, tags, project))
        else:
            resolved.extend(open_sources(spec, project=project, version=version_label))
    if installed:
        resolved.extend(installed_all())
    reports: list[IndexReport] = []
    with _store(db, create=True) as store:
        try:
            for source in resolved:
                reports.append(_index_one(source, store, workers, quiet=as_json, force=force))
                if not as_json:
                    index_summary(reports[-1], _err)
        except KeyboardInterrupt:
            _fail(interrupted_index(reports, resolved[len(reports)].info), 2)
    if as_json:
        _print_json(reports)


def _tag_specs(repo: str, pattern: str) -> list[str]:
    """`REPO@TAG` for each tag of the repository `repo` matching `pattern`, oldest first."""
    tags = list_tags(repo, pattern)
    if not tags:
        raise SourceError(f"no tag of {repo} matches {pattern!r}")
    return [f"{repo}@{tag}" for tag in tags]


def _tag_sources(repo: str, pattern: str, project: str | None) -> list[Source]:
    """A source for each tag of the repository `repo` matching `pattern`, oldest first."""
    return [s for spec in _tag_specs(repo, pattern) for s in open_sources(spec, project=project)]


def _report_cluster(
    specs: list[str], results: Generator[VersionResult, None, None], as_json: bool
) -> None:
    """Print each version's result as it comes (under a progress bar on a terminal), then
    the total, or all of them as JSON; exit 2 when any version failed."""
    started = time.perf_counter()
    done: list[VersionResult] = []
    try:
        _quiet_dask()
        if as_json or not _err.is_terminal:
            for result in results:
                done.append(result)
                if not as_json:
                    cluster_result(result, _err)
        else:
            with _progress("cluster") as progress:
                task = progress.add_task("versions", total=len(specs))
                for result in results:
                    done.append(result)
                    cluster_result(result, progress.console)
                    progress.advance(task)
    except KeyboardInterrupt:
        _fail(
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
        _print_json(done)
    else:
        cluster_total(done, time.perf_counter() - started, _err)
    if failed:
        _fail(f"{len(failed)} of {len(done)} versions failed", 2)


def _progress(label: str) -> Progress:
    """A progress bar on standard error: the label (rich markup), the bar, done of total,
    time spent; gone once finished."""
    columns = (TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=_err, transient=True)


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


def _index_one(
    source: Source, store: Store, workers: int | None, *, quiet: bool, force: bool
) -> IndexReport:
    if quiet or not _err.is_terminal:
        return index_source(source, store, workers=workers, force=force)
    with _progress("{task.description}") as progress:
        label = progress_label(f"{source.info.project} {source.info.version}")
        task = progress.add_task(label, total=None)

        def advance(stage: str, n: int, total: int) -> None:
            progress.update(task, advance=n, total=total)

        return index_source(source, store, workers=workers, progress=advance, force=force)


@main.command()
@click.argument("names", nargs=-1, required=True, metavar="PROJECT OLD NEW | OLD [NEW]")
@click.option(
    "--git",
    "repo",
    metavar="REPO",
    help="Compare two revisions of this git repository (NEW left out: its working tree),"
    " indexing them first; without --db, into a database of the run's own.",
)
@click.option(
    "--fail-on",
    "fail_on",
    metavar="CHANGES",
    help="Exit 3 when the diff holds any of these changes: a comma-separated list of"
    " added, removed, reworded, moved, or any.",
)
@click.option("--markdown", is_flag=True, help="Print Markdown to paste into release notes.")
@db_option
@json_option
@handle_errors
def diff(
    names: tuple[str, ...],
    repo: str | None,
    fail_on: str | None,
    markdown: bool,
    db: str | None,
    as_json: bool,
) -> None:
    """Compare the errors of two indexed versions of PROJECT: added, removed, reworded
    (old and new message side by side) and moved to another function or file.

    With --git REPO, OLD and NEW are revisions of that repository (a pull request's base
    and head in CI; HEAD and the working tree in a pre-commit hook). With --fail-on, the
    exit status is 3 when the diff holds one of the named changes, so that a change that
    rewords or removes a message users search for is flagged.
    """
    if markdown and as_json:
        raise click.UsageError("give --json or --markdown, not both")
    gate = parse_fail_on(fail_on) if fail_on is not None else ()
    if repo is None and len(names) != 3:
        raise click.UsageError("give PROJECT OLD NEW (or --git REPO OLD [NEW])")
    if repo is not None and len(names) > 2:
        raise click.UsageError("with --git, give OLD [NEW]: two revisions of the repository")
    with contextlib.ExitStack() as stack:
        if repo is not None and db is None:
            db = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "diff.db")
        store = stack.enter_context(_store(db, create=repo is not None))  # --git indexes
        if repo is None:
            result = errdex.diff(*names, db=store)
        else:
            result = diff_revisions(store, repo, names[0], names[1] if len(names) > 1 else None)
    if as_json:
        _print_json(result)
    elif markdown:
        sys.stdout.write(safe_text(diff_markdown(result)))
    elif _out.is_terminal:
        _out.print(diff_view(result), crop=True)
    else:  # piped: whole lines
        write_lines(diff_view(result).renderables)
    flagged = tripped(result, gate)
    if flagged:
        said = ", ".join(f"{count} {kind}" for kind, count in flagged.items())
        _fail(f"errors changed from {result.old} to {result.new}: {said} (--fail-on)", 3)


@main.command("list")
@click.option("--project", help="Only this project.")
@click.option("--version", "version_label", help="Only this version (default: all).")
@click.option("--file", "file", help="Only sites in this file (path inside the project).")
@click.option("--limit", type=click.IntRange(1), help="At most this many sites.")
@db_option
@json_option
@handle_errors
def list_(
    project: str | None,
    version_label: str | None,
    file: str | None,
    limit: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """List indexed error sites."""
    sites = errdex.list_sites(db=db, project=project, version=version_label, file=file, limit=limit)
    if as_json:
        _print_json(sites)
        return
    if not sites:
        raise NotFoundError("no sites match; index something first: errdex index SOURCE")
    if _out.is_terminal:
        _out.print(site_lines(sites), crop=True)
    else:  # piped: whole lines, for grep and friends
        write_lines(site_lines(sites).renderables)


@main.command()
@click.argument("error_id")
@click.option("--version", "version_label", help="Show the site of this version (default: newest).")
@db_option
@json_option
@handle_errors
def show(error_id: str, version_label: str | None, db: str | None, as_json: bool) -> None:
    """Show one error's page by its 16-hex id: what it means, the code, when it happens,
    how to fix it."""
    page = errdex.show(error_id, db=db, version=version_label)
    if as_json:
        _print_json(page)
        return
    _out.print(page_view(page))


@main.command()
@click.argument("error_id", required=False, metavar="[ID]")
@click.option("--project", help="Explain every error of this project's version.")
@click.option("--version", "version_label", help="The version (default: newest).")
@click.option(
    "--llm-url",
    required=True,
    envvar="ERRDEX_LLM_URL",
    metavar="URL",
    help="An OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1.",
)
@click.option("--llm-model", required=True, envvar="ERRDEX_LLM_MODEL", metavar="NAME")
@click.option("--concurrency", type=click.IntRange(1, 64), default=4, show_default=True)
@click.option("--limit", type=click.IntRange(1), help="At most this many errors in this run.")
@click.option("--refresh", is_flag=True, help="Ask again even when an answer is cached.")
@db_option
@json_option
@handle_errors
def explain(
    error_id: str | None,
    project: str | None,
    version_label: str | None,
    llm_url: str,
    llm_model: str,
    concurrency: int,
    limit: int | None,
    refresh: bool,
    db: str | None,
    as_json: bool,
) -> None:
    """Let a model write the prose of one error's page (ID), or of every error of a
    project (--project), from the facts; answers citing code the index lacks are rejected.
    The key comes from $ERRDEX_LLM_API_KEY. Runs resume where they stopped."""
    if (error_id is None) == (project is None):
        raise click.UsageError("give an error ID or --project, not both")
    with _store(db) as store, ChatClient(llm_url, llm_model) as chat:
        if error_id is not None:
            outcome = enrich_error(store, error_id, chat, version_label, refresh=refresh)
            page = build_page(store, error_id, version_label, model=llm_model)
            if as_json:
                _print_json({"outcome": outcome, "page": page})
                return
            if outcome.status == "rejected":
                _err.print(note_line(f"the answer was rejected: {'; '.join(outcome.reasons)}"))
            _out.print(page_view(page))
            return
        assert project is not None
        report = _explain_project(store, project, version_label, chat, concurrency, limit, as_json)
    if as_json:
        _print_json(report)
    else:
        _out.print(
            safe_line(
                f"{report.project} {report.version} with {report.model}: {report.accepted}"
                f" accepted, {report.rejected} rejected ({report.rejected_for_citations} for"
                f" unverifiable citations), {report.failed} failed, {report.skipped} done"
                f" before; {report.errors} errors in all"
            ),
            markup=False,
        )


def _explain_project(
    store: Store,
    project: str,
    version: str | None,
    chat: ChatClient,
    concurrency: int,
    limit: int | None,
    quiet: bool,
) -> EnrichReport:
    if quiet or not _err.is_terminal:
        return enrich_version(store, project, chat, version, concurrency=concurrency, limit=limit)
    with _progress("explain") as progress:
        task = progress.add_task(progress_label(project), total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return enrich_version(
            store, project, chat, version, concurrency=concurrency, limit=limit, progress=advance
        )


_MAX_PASTE = 1_000_000  # the end of a paste holds the error: keep its last megabyte


def _read_paste(text: str | None) -> str:
    if text is not None and text != "-":
        return text
    if text is None and sys.stdin.isatty():
        raise click.UsageError("give the error as TEXT, or pipe it in with -")
    stream = sys.stdin.buffer
    tail = b""
    while chunk := stream.read(1 << 20):
        tail = (tail + chunk)[-_MAX_PASTE:]
    return tail.decode("utf-8", errors="replace")


@main.command()
@click.argument("text", required=False, metavar="[TEXT | -]")
@click.option("--project", help="Only errors of this project.")
@click.option("--version", "version_label", help="Only this version of the project.")
@click.option("--limit", type=click.IntRange(1, 100), default=5, show_default=True)
@click.option(
    "--no-auto-index",
    is_flag=True,
    help="Do not index installed distributions that the traceback points into.",
)
@db_option
@json_option
@handle_errors
def lookup(
    text: str | None,
    project: str | None,
    version_label: str | None,
    limit: int,
    no_auto_index: bool,
    db: str | None,
    as_json: bool,
) -> None:
    """Find where an error comes from: paste a message, a traceback or a log line
    (TEXT, or - to read standard input).

    Exit status: 0 when a match was found, 1 when none was, 2 for bad input.
    """
    paste = _read_paste(text)
    evidence = parse_paste(paste)
    # It may index (into a new database) when the paste names a package or --project does.
    auto_index = not no_auto_index and may_index(evidence, project)
    with _store(db, create=auto_index) as store:
        answer = answer_paste(
            store,
            evidence,
            project=project,
            version=version_label,
            limit=limit,
            auto_index=auto_index,
            first=True,
            announce=lambda m: _err.print(note_line(m)),
        )
        result = answer.result
        best = result.matches[0] if result.matches else None
        text_of_best = (
            store.file_text(best.site.version_id, best.file) if best and best.site else None
        )
        page_of_best = (
            fill_values(build_page(store, best.id, best.version), best.values)
            if best and not as_json
            else None
        )
        if as_json:
            _print_json(result.answer(answer.partial))
        elif best is not None:
            _out.print(lookup_view(result, text_of_best))
            if page_of_best is not None:
                _out.rule(style="dim")
                _out.print(page_view(page_of_best))
        else:
            _out.print(nearest_view(result))
        sys.stdout.flush()
        for report in answer.partial:
            _err.print(
                note_line(
                    f"answered from {report.files} files of {report.project} {report.version};"
                    " indexing the rest now (Ctrl-C leaves it for the next lookup)"
                )
            )
        complete_answer(store, answer)
    if best is None:
        sys.exit(1)


@main.command()
@click.argument("project")
@click.argument("version", required=False)
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder to write (new or empty).",
)
@click.option(
    "--base-url",
    metavar="URL",
    help="Where the folder will be published, for the sitemap's absolute addresses.",
)
@db_option
@json_option
@handle_errors
def export(
    project: str,
    version: str | None,
    out: Path,
    base_url: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Write PROJECT's catalog at VERSION (default: the newest) as static files: the pages
    and JSON twins `errdex serve` answers, at the same paths (PATH/index.html, PATH.json),
    with relative links, an index of every error and a sitemap, for any static host."""
    from errdex.web.export import export_catalog

    if as_json or not _err.is_terminal:
        report = export_catalog(db, project, version, out, base_url=base_url)
    else:
        with _progress("{task.description}") as bar:
            task = bar.add_task(f"exporting {safe_line(project)}", total=None)
            report = export_catalog(
                db, project, version, out, base_url=base_url,
                progress=lambda n: bar.update(task, advance=n),
            )  # fmt: skip
    if as_json:
        data = dataclasses.asdict(report)
        data["out"] = str(report.out)
        _print_json(data)
        return
    sys.stdout.write(
        f"{report.project} {report.version}: {len(report.errors)} errors, {report.pages} pages,"
        f" {report.json_files} JSON files, {report.assets} assets,"
        f" {report.bytes / 1e6:.1f} MB in {report.seconds:.1f} s: {report.out}\n"
    )


@main.command()
@db_option
def mcp(db: str | None) -> None:
    """Serve errdex to coding agents over the Model Context Protocol (stdio): the tools
    lookup, show, list, diff and index, each answering with the JSON of its command."""
    try:
        from errdex.integrations.mcp_server import run as run_mcp
    except ImportError:
        _fail("the MCP server needs the mcp package: pip install 'errdex[mcp]'", 2)
    else:
        run_mcp(db)


@main.group()
def hook() -> None:
    """Turn errdex's summary under uncaught tracebacks on or off for this whole Python
    environment (every program it runs), without changing any code."""


@hook.command("enable")
def hook_enable() -> None:
    """Write a .pth file into this environment's site-packages that installs the hook at
    every start of Python (lazily: nothing is imported until an exception is uncaught).
    ERRDEX_HOOK=0 turns it off for one run; ERRDEX_DB names the database."""
    from errdex.integrations.startup import enable

    try:
        path = enable()
    except OSError as error:
        _fail(f"cannot write the hook's .pth file: {error}", 2)
    else:
        sys.stdout.write(f"errdex hook enabled: {path}\n")


@hook.command("disable")
def hook_disable() -> None:
    """Remove the .pth file `errdex hook enable` wrote."""
    from errdex.integrations.startup import disable

    try:
        path = disable()
    except OSError as error:
        _fail(f"cannot remove the hook's .pth file: {error}", 2)
    else:
        sys.stdout.write(f"errdex hook disabled: {path}\n" if path else "errdex hook was off\n")


@main.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("script", type=click.Path(exists=True, dir_okay=False))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@db_option
def run(script: str, args: tuple[str, ...], db: str | None) -> None:
    """Run a Python SCRIPT; if it dies of an uncaught exception, show where that was raised."""
    import runpy

    from errdex.hook import install

    install(db)
    sys.argv = [script, *args]
    try:
        runpy.run_path(str(Path(script).resolve()), run_name="__main__")
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as error:  # outside click's handling, as Python itself would
        tb = error.__traceback__
        target = str(Path(script).resolve())
        while tb is not None and tb.tb_frame.f_code.co_filename != target:
            tb = tb.tb_next  # drop errdex's and runpy's own frames
        error.__traceback__ = tb or error.__traceback__
        sys.excepthook(type(error), error, error.__traceback__)
        sys.exit(1)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Server processes."
)
@click.option(
    "--cache-mb",
    type=click.IntRange(0),
    default=None,
    help="Response cache of each worker, in MiB (0: off)  [default: $ERRDEX_WEB_CACHE_MB, else 64]",
)
@db_option
@handle_errors
def serve(host: str, port: int, workers: int, cache_mb: int | None, db: str | None) -> None:
    """Serve the catalog over HTTP: pages for people, JSON under /api/ for programs."""
    from errdex.web import serve as serve_web

    serve_web(db, host=host, port=port, workers=workers, cache_mb=cache_mb)


if __name__ == "__main__":  # pragma: no cover
    main()
