"""`errdex diff`: the errors two versions (or two git revisions) add, remove, reword, move."""

from __future__ import annotations

import sys

import click

import errdex
from errdex.cli.output import db_option, fail, handle_errors, json_option, out, print_json
from errdex.history import diff_markdown
from errdex.history.gate import parse_fail_on, tripped
from errdex.render.console import write_lines
from errdex.render.diff_terminal import diff_view
from errdex.render.safe_text import safe_text


@click.command()
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
    if repo is None:
        result = errdex.diff(*names, db=db)
    else:
        result = errdex.diff_git(repo, names[0], names[1] if len(names) > 1 else None, db=db)
    if as_json:
        print_json(result)
    elif markdown:
        sys.stdout.write(safe_text(diff_markdown(result)))
    elif out.is_terminal:
        out.print(diff_view(result), crop=True)
    else:  # piped: whole lines
        write_lines(diff_view(result).renderables)
    flagged = tripped(result, gate)
    if flagged:
        said = ", ".join(f"{count} {kind}" for kind, count in flagged.items())
        fail(f"errors changed from {result.old} to {result.new}: {said} (--fail-on)", 3)
