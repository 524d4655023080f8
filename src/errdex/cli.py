"""The `errdex` command: each subcommand calls one library function and prints its result.

The library raises `ErrdexError`s; this module turns them into one line on stderr and an
exit code (1: nothing found, 2: bad input or a failed run).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click
import msgspec
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from errdex.errors import ErrdexError, NotFoundError
from errdex.indexing import IndexReport, index_source
from errdex.render.records import site_record
from errdex.render.terminal import index_summary, site_detail, site_lines
from errdex.sources import installed_all, open_sources
from errdex.sources.base import Source
from errdex.store import Store, open_store

F = TypeVar("F", bound=Callable[..., Any])

_out = Console(highlight=False, soft_wrap=False)
_err = Console(stderr=True, highlight=False)


def _fail(message: str, code: int) -> None:
    _err.print(f"[bold red]errdex:[/] {message}", markup=True, highlight=False, soft_wrap=True)
    sys.exit(code)


def handle_errors(func: F) -> F:
    """Turn errdex's own errors and Ctrl-C into one line on stderr and an exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ErrdexError as error:
            _fail(str(error).replace("[", "\\["), error.exit_code)
        except KeyboardInterrupt:
            _fail("interrupted; the database keeps what it held before this run", 2)
        except BrokenPipeError:
            sys.stderr.close()  # `errdex list | head`: the reader left, nothing to say
        return None

    return wrapper  # type: ignore[return-value]


db_option = click.option(
    "--db",
    "db",
    envvar="ERRDEX_DB",
    metavar="PATH",
    help="The database: a SQLite file path (default: $ERRDEX_DB, else the user data folder).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")


@contextmanager
def _store(db: str | None) -> Iterator[Store]:
    store = open_store(db)
    try:
        yield store
    finally:
        store.close()


def _print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


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
@db_option
@json_option
@handle_errors
def index(
    sources: tuple[str, ...],
    installed: bool,
    project: str | None,
    version_label: str | None,
    workers: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Index SOURCE: a directory, PATH@REV of a git repository, a wheel or sdist,
    NAME==VERSION from the package index, or installed:NAME.

    Nothing of the indexed code is imported or run. Each version is written in one
    transaction: an interrupted run leaves the database as it was.
    """
    if not sources and not installed:
        raise click.UsageError("give at least one SOURCE, or --installed")
    resolved: list[Source] = []
    for spec in sources:
        resolved.extend(open_sources(spec, project=project, version=version_label))
    if installed:
        resolved.extend(installed_all())
    reports: list[IndexReport] = []
    with _store(db) as store:
        for source in resolved:
            reports.append(_index_one(source, store, workers, quiet=as_json))
            if not as_json:
                index_summary(reports[-1], _err)
    if as_json:
        _print_json([msgspec.to_builtins(r) for r in reports])


def _index_one(source: Source, store: Store, workers: int | None, *, quiet: bool) -> IndexReport:
    if quiet or not _err.is_terminal:
        return index_source(source, store, workers=workers)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=_err, transient=True) as progress:
        task = progress.add_task(f"{source.info.project} {source.info.version}", total=None)

        def advance(stage: str, n: int, total: int) -> None:
            progress.update(task, advance=n, total=total)

        return index_source(source, store, workers=workers, progress=advance)


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
    with _store(db) as store:
        sites = store.list_sites(project=project, version=version_label, file=file, limit=limit)
    if as_json:
        _print_json([site_record(s) for s in sites])
        return
    if not sites:
        raise NotFoundError("no sites match; index something first: errdex index SOURCE")
    if _out.is_terminal:
        _out.print(site_lines(sites), crop=True)
    else:  # piped: whole lines, for grep and friends
        for line in site_lines(sites).renderables:
            sys.stdout.write(str(line) + "\n")


@main.command()
@click.argument("error_id")
@click.option("--version", "version_label", help="Show the site of this version (default: newest).")
@db_option
@json_option
@handle_errors
def show(error_id: str, version_label: str | None, db: str | None, as_json: bool) -> None:
    """Show one error by its 16-hex id."""
    with _store(db) as store:
        sites = store.get_error(error_id.strip().lower())
        chosen = sites[0]
        if version_label is not None:
            matching = [s for s in sites if s.version == version_label]
            if not matching:
                have = ", ".join(s.version for s in sites)
                raise NotFoundError(
                    f"error {error_id} is not in version {version_label} (it is in {have})"
                )
            chosen = matching[0]
        text = store.file_text(chosen.version_id, chosen.file)
    if as_json:
        record = site_record(chosen)
        record["versions"] = [
            {"version": s.version, "file": s.file, "line": s.site.line} for s in sites
        ]
        _print_json(record)
        return
    _out.print(site_detail(chosen, text))


if __name__ == "__main__":  # pragma: no cover
    main()
