"""The catalog as programs read it: typed records of sites, files, projects and failures.

Each record is a msgspec Struct: `errdex.render.json` encodes it for the CLI's `--json`
and the web's `/api/`, and the OpenAPI description is generated from the same classes, so
the JSON and its description cannot drift apart. Error pages are `errdex.explain.Page`,
lookups `errdex.match.LookupAnswer`, diffs `errdex.history.VersionDiff`.
"""

from __future__ import annotations

import msgspec

from errdex.facts import Binding, ConditionRecord, Variant
from errdex.store.base import StoredSite, VersionRecord

__all__ = [
    "BindingRecord",
    "ConditionRecord",
    "CountRow",
    "ExceptionRecord",
    "ExceptionRow",
    "Failure",
    "FilePage",
    "FileRow",
    "KindRow",
    "ProjectList",
    "ProjectPage",
    "ProjectSummary",
    "SiteRecord",
    "VariantRecord",
    "VersionRow",
    "site_record",
    "version_row",
]


class VariantRecord(msgspec.Struct, kw_only=True):
    """One reason of a reasons list, with the conditions under which it is added."""

    reason: str
    file: str
    line: int
    function: str
    conditions: list[ConditionRecord]


class BindingRecord(msgspec.Struct, kw_only=True):
    """A name a condition uses and the value assigned to it."""

    name: str
    value: str
    line: int
    origin: str
    file: str | None


class ExceptionRecord(msgspec.Struct, kw_only=True):
    name: str
    qualname: str
    bases: list[str]
    defined_in: str | None


class SiteRecord(msgspec.Struct, kw_only=True):
    """One error site: its identity, message, place, conditions and variants."""

    id: str
    project: str
    version: str
    revision: str
    kind: str
    exception: ExceptionRecord | None
    level: str | None
    message: str | None
    # What the raise names when no class was resolved (`err`, `self._error`): a label.
    raised: str | None = None
    file: str
    line: int
    end_line: int
    module: str
    function: str
    class_name: str | None = msgspec.field(name="class")
    url: str | None
    cause: str | None
    conditions: list[ConditionRecord]
    bindings: list[BindingRecord]
    variants: list[VariantRecord]


def _variant(variant: Variant, site_file: str) -> VariantRecord:
    return VariantRecord(
        reason=variant.reason.text,
        file=variant.file or site_file,
        line=variant.line,
        function=variant.function,
        conditions=[ConditionRecord.of(c) for c in variant.conditions],
    )


def _binding(binding: Binding) -> BindingRecord:
    return BindingRecord(
        name=binding.name,
        value=binding.value,
        line=binding.line,
        origin=binding.origin,
        file=binding.file,
    )


def site_record(stored: StoredSite) -> SiteRecord:
    """The record of a stored site."""
    site = stored.site
    exception = stored.exception
    return SiteRecord(
        id=stored.id,
        project=stored.project,
        version=stored.version,
        revision=stored.revision,
        kind=str(site.kind),
        exception=(
            ExceptionRecord(
                name=exception.name,
                qualname=exception.qualname,
                bases=list(exception.bases),
                defined_in=exception.defined_in,
            )
            if exception is not None
            else None
        ),
        level=site.level,
        message=site.message.text if site.message is not None else None,
        raised=site.exception,
        file=stored.file,
        line=site.line,
        end_line=site.end_line,
        module=stored.module,
        function=site.function,
        class_name=site.class_name,
        url=stored.url,
        cause=site.cause,
        conditions=[ConditionRecord.of(c) for c in site.conditions],
        bindings=[_binding(b) for b in site.bindings],
        variants=[_variant(v, stored.file) for v in site.variants],
    )


class VersionRow(msgspec.Struct, kw_only=True):
    """An indexed version, with what its last index stored."""

    label: str
    revision: str
    date: str | None
    indexed_at: str
    source_kind: str
    sites: int
    errors: int
    files: int


def version_row(record: VersionRecord) -> VersionRow:
    stats = record.stats
    return VersionRow(
        label=record.label,
        revision=record.revision,
        date=record.date,
        indexed_at=record.indexed_at,
        source_kind=record.source_kind,
        sites=stats.sites,
        errors=stats.errors,
        files=stats.files,
    )


class ProjectSummary(msgspec.Struct, kw_only=True):
    """A project in the list of projects: its versions and the newest one's counts."""

    name: str
    homepage: str | None
    tracker_url: str | None
    versions: list[str]  # labels, newest first
    newest: VersionRow | None


class ProjectList(msgspec.Struct, kw_only=True):
    """Every indexed project (`/api/projects`)."""

    projects: list[ProjectSummary]


class KindRow(msgspec.Struct, kw_only=True):
    kind: str
    count: int


class ExceptionRow(msgspec.Struct, kw_only=True):
    exception: str
    count: int


class FileRow(msgspec.Struct, kw_only=True):
    path: str
    sites: int


class CountRow(msgspec.Struct, kw_only=True):
    """One version's sites counted: by kind, by exception class and by file (the most)."""

    sites: int
    errors: int
    by_kind: list[KindRow]
    by_exception: list[ExceptionRow]
    files: list[FileRow]


class ProjectPage(msgspec.Struct, kw_only=True):
    """A project's versions and one version's errors counted (`/api/projects/{project}`)."""

    name: str
    homepage: str | None
    tracker_url: str | None
    versions: list[VersionRow]
    version: str
    revision: str
    sites: int
    errors: int
    by_kind: list[KindRow]
    by_exception: list[ExceptionRow]
    files: list[FileRow]


class FilePage(msgspec.Struct, kw_only=True):
    """The error sites of one file of a version."""

    project: str
    version: str
    revision: str
    path: str
    sites: list[SiteRecord]


class Failure(msgspec.Struct, kw_only=True):
    """What went wrong: the one shape of every error answer of the web."""

    error: str
    status: int
