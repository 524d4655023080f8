"""`errdex explain`: let a model write the prose of error pages from their facts."""

from __future__ import annotations

from collections.abc import Callable

import click

import errdex
from errdex.cli.output import (
    db_option,
    err,
    handle_errors,
    json_option,
    out,
    print_json,
    progress_bar,
)
from errdex.explain.model.enrich import EnrichReport
from errdex.render.page_terminal import page_view
from errdex.render.safe_text import safe_line
from errdex.render.terminal import note_line, progress_label


@click.command()
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
    if error_id is not None:
        explained = errdex.explain_error(
            error_id,
            llm_url=llm_url,
            llm_model=llm_model,
            db=db,
            version=version_label,
            refresh=refresh,
        )
        if as_json:
            print_json(explained)
            return
        if explained.outcome.status == "rejected":
            reasons = "; ".join(explained.outcome.reasons)
            err.print(note_line(f"the answer was rejected: {reasons}"))
        out.print(page_view(explained.page))
        return
    assert project is not None
    report = _explain_project(
        project, version_label, llm_url, llm_model, db, concurrency, limit, as_json
    )
    if as_json:
        print_json(report)
    else:
        out.print(
            safe_line(
                f"{report.project} {report.version} with {report.model}: {report.accepted}"
                f" accepted, {report.rejected} rejected ({report.rejected_for_citations} for"
                f" unverifiable citations), {report.failed} failed, {report.skipped} done"
                f" before; {report.errors} errors in all"
            ),
            markup=False,
        )


def _explain_project(
    project: str,
    version: str | None,
    llm_url: str,
    llm_model: str,
    db: str | None,
    concurrency: int,
    limit: int | None,
    quiet: bool,
) -> EnrichReport:
    def run(progress: Callable[[int, int], None] | None = None) -> EnrichReport:
        return errdex.explain_project(
            project,
            llm_url=llm_url,
            llm_model=llm_model,
            db=db,
            version=version,
            concurrency=concurrency,
            limit=limit,
            progress=progress,
        )

    if quiet or not err.is_terminal:
        return run()
    with progress_bar("explain") as bar:
        task = bar.add_task(progress_label(project), total=None)
        return run(lambda done, total: bar.update(task, completed=done, total=total))
