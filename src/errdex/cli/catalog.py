"""`errdex list` and `errdex show`: the indexed sites, and one error's page."""

from __future__ import annotations

import click

import errdex
from errdex.cli.output import db_option, handle_errors, json_option, out, print_json
from errdex.errors import NotFoundError
from errdex.render.console import write_lines
from errdex.render.page_terminal import page_view
from errdex.render.terminal import site_lines


@click.command("list")
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
        print_json(sites)
        return
    if not sites:
        raise NotFoundError("no sites match; index something first: errdex index SOURCE")
    if out.is_terminal:
        out.print(site_lines(sites), crop=True)
    else:  # piped: whole lines, for grep and friends
        write_lines(site_lines(sites).renderables)


@click.command()
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
        print_json(page)
        return
    out.print(page_view(page))
