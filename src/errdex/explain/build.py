"""Build one error's page from the store: gather the facts, explain them, fill the model."""

from __future__ import annotations

from errdex.errors import NotFoundError
from errdex.explain.linked import caller_views, knob_views
from errdex.explain.page import Analysis, Page
from errdex.explain.related import related_errors
from errdex.explain.report import report_url
from errdex.explain.rules import Facts, explain
from errdex.explain.views import (
    condition_view,
    exception_view,
    source_view,
    variant_views,
    version_entries,
)
from errdex.store.base import Store, StoredSite, VersionRecord

__all__ = ["build_page", "choose_site"]


def choose_site(sites: list[StoredSite], error_id: str, version: str | None) -> StoredSite:
    """The site of `version` (the newest version holding the error when None)."""
    if version is None:
        return sites[0]
    matching = [s for s in sites if s.version == version]
    if not matching:
        have = ", ".join(dict.fromkeys(s.version for s in sites))
        raise NotFoundError(f"error {error_id} is not in version {version} (it is in {have})")
    return matching[0]


def build_page(store: Store, error_id: str, version: str | None = None) -> Page:
    """The page of one error id, for one version (the newest holding it by default).

    Raises `NotFoundError` for an unknown id or a version that does not hold it.
    """
    error_id = error_id.strip().lower()
    sites = store.get_error(error_id)
    chosen = choose_site(sites, error_id, version)
    text = store.file_text(chosen.version_id, chosen.file)
    record = _version_record(store, chosen)
    conditions = [condition_view(c) for c in chosen.site.conditions]
    facts = Facts(
        stored=chosen,
        conditions=conditions,
        variants=variant_views(chosen),
        callers=caller_views(chosen),
        knobs=knob_views(chosen),
        docstring=chosen.exception.docstring if chosen.exception else None,
    )
    explanation = explain(facts)
    message = chosen.site.message.text if chosen.site.message is not None else None
    return Page(
        id=chosen.id,
        project=chosen.project,
        version=chosen.version,
        revision=chosen.revision,
        exception=exception_view(chosen),
        kind=str(chosen.site.kind),
        level=chosen.site.level,
        message=message,
        source=source_view(chosen, text),
        conditions=conditions,
        variants=facts.variants,
        what_it_means=explanation.what_it_means,
        when_it_happens=explanation.when_it_happens,
        solutions=explanation.solutions,
        example_fix=explanation.example_fix,
        related=related_errors(store, chosen),
        versions=version_entries(sites, chosen),
        callers=facts.callers,
        knobs=facts.knobs,
        analysis=Analysis(
            by="rules",
            at=record.indexed_at if record else "",
            project=chosen.project,
            revision=chosen.revision,
            date=record.date if record else None,
        ),
        report_url=report_url(store, chosen.project, message, chosen.id),
    )


def _version_record(store: Store, stored: StoredSite) -> VersionRecord | None:
    for record in store.versions(stored.project):
        if record.id == stored.version_id:
            return record
    return None
