"""`errdex lookup`: find where a pasted error comes from."""

from __future__ import annotations

import sys

import click

from errdex.cli.output import db_option, err, handle_errors, json_option, open_db, out, print_json
from errdex.explain import build_page
from errdex.explain.advice import fill_values
from errdex.match.answer import answer_paste, complete_answer, may_index
from errdex.match.paste import parse_paste
from errdex.render.page_terminal import page_view
from errdex.render.terminal import lookup_view, nearest_view, note_line

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
    with open_db(db, create=auto_index) as store:
        answer = answer_paste(
            store,
            evidence,
            project=project,
            version=version_label,
            limit=limit,
            auto_index=auto_index,
            first=True,
            announce=lambda m: err.print(note_line(m)),
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
            print_json(result.answer(answer.partial))
        elif best is not None:
            out.print(lookup_view(result, text_of_best))
            if page_of_best is not None:
                out.rule(style="dim")
                out.print(page_view(page_of_best))
        else:
            out.print(nearest_view(result))
        sys.stdout.flush()
        for report in answer.partial:
            err.print(
                note_line(
                    f"answered from {report.files} files of {report.project} {report.version};"
                    " indexing the rest now (Ctrl-C leaves it for the next lookup)"
                )
            )
        complete_answer(store, answer)
    if best is None:
        sys.exit(1)
