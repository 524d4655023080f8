"""`errdex lookup`: find where a pasted error comes from."""

from __future__ import annotations

import sys

import click

import errdex
from errdex.answers import PasteAnswer
from errdex.cli.output import (
    db_option,
    err,
    handle_errors,
    json_option,
    out,
    plain_note,
    print_json,
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


@click.command()
@click.argument("text", required=False, metavar="[TEXT | -]")
@click.option("--project", help="Only errors of this project.")
@click.option("--version", "version_label", help="Only this version of the project.")
@click.option(
    "--package",
    "release",
    metavar="NAME==VERSION",
    help="The release the error came from, indexed first if the database lacks it (read from"
    " its archive, downloaded once; never installed).",
)
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
    release: str | None,
    limit: int,
    no_auto_index: bool,
    db: str | None,
    as_json: bool,
) -> None:
    """Find where an error comes from: paste a message, a traceback or a log line
    (TEXT, or - to read standard input).

    Exit status: 0 when a match was found, 1 when none was, 2 for bad input.
    """

    def note(message: str) -> None:
        if as_json:  # rich is not imported to print JSON
            plain_note(message)
        else:
            from errdex.render.terminal import note_line

            err.print(note_line(message))

    def show(answer: PasteAnswer) -> None:
        if as_json:
            print_json(answer.record())
            sys.stdout.flush()
        else:
            _draw(answer)
        for report in answer.partial:
            note(
                f"answered from {report.files} files of {report.project} {report.version};"
                " indexing the rest now (Ctrl-C leaves it for the next lookup)"
            )

    answer = errdex.answer(
        _read_paste(text),
        db=db,
        project=project,
        version=version_label,
        release=release,
        limit=limit,
        auto_index=not no_auto_index,
        pages=not as_json,
        announce=note,
        answered=show,
    )
    if answer.best is None:
        sys.exit(1)


def _draw(answer: PasteAnswer) -> None:
    """The answer on the terminal: the best match and its page, or the nearest templates."""
    from errdex.render.terminal import lookup_view, nearest_view

    if answer.best is not None:
        out.print(lookup_view(answer.result, answer.file_text))
        if answer.page is not None:
            # Imported here: `--json` draws no page.
            from errdex.render.page_terminal import page_view

            out.rule(style="dim")
            out.print(page_view(answer.page))
    else:
        out.print(nearest_view(answer.result))
    sys.stdout.flush()
