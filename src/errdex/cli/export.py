"""`errdex export`: a project's catalog as static files."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from errdex.cli.output import db_option, err, handle_errors, json_option, print_json, progress_bar
from errdex.render.safe_text import safe_line


@click.command()
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

    if as_json or not err.is_terminal:
        report = export_catalog(db, project, version, out, base_url=base_url)
    else:
        with progress_bar("{task.description}") as bar:
            task = bar.add_task(f"exporting {safe_line(project)}", total=None)
            report = export_catalog(
                db, project, version, out, base_url=base_url,
                progress=lambda n: bar.update(task, advance=n),
            )  # fmt: skip
    if as_json:
        data = dataclasses.asdict(report)
        data["out"] = str(report.out)
        print_json(data)
        return
    sys.stdout.write(
        f"{report.project} {report.version}: {len(report.errors)} errors, {report.pages} pages,"
        f" {report.json_files} JSON files, {report.assets} assets,"
        f" {report.bytes / 1e6:.1f} MB in {report.seconds:.1f} s: {report.out}\n"
    )
