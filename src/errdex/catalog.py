"""The catalog as records: projects with their versions, one version's errors counted, the
sites of a file. The library's `errdex.list_projects` and the web's project and file pages
(HTML and `/api/`) read these; the counts of a version are kept while it is unchanged.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from errdex.errors import NotFoundError
from errdex.render.records import (
    CountRow,
    ExceptionRow,
    FilePage,
    FileRow,
    KindRow,
    ProjectList,
    ProjectPage,
    ProjectSummary,
    site_record,
    version_row,
)
from errdex.store.base import Store, StoredSite, VersionRecord

__all__ = ["exception_label", "file_view", "project_view", "projects_view"]

T = TypeVar("T")

TOP = 25  # rows in each "most" table of a project page


class Memo(Generic[T]):
    """A small LRU of values that are fixed for their key (a key names a revision)."""

    def __init__(self, size: int = 64) -> None:
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


def exception_label(stored: StoredSite) -> str:
    """What a site reports: its exception class, `log.<level>`, or its kind."""
    if stored.exception is not None:
        return stored.exception.name
    if stored.site.level:
        return f"log.{stored.site.level}"
    return stored.site.exception or str(stored.site.kind)


def projects_view(store: Store) -> ProjectList:
    """`/api/projects`: every project with its newest version."""
    rows: list[ProjectSummary] = []
    for project in store.projects():
        versions = store.versions(project.name)
        rows.append(
            ProjectSummary(
                name=project.name,
                homepage=project.homepage,
                tracker_url=project.tracker_url,
                versions=[v.label for v in versions],
                newest=version_row(versions[0]) if versions else None,
            )
        )
    return ProjectList(projects=rows)


def _choose(versions: list[VersionRecord], project: str, label: str | None) -> VersionRecord:
    if not versions:
        raise NotFoundError(f"project {project} has no indexed versions")
    if label is None:
        return versions[0]
    for record in versions:
        if record.label == label:
            return record
    have = ", ".join(v.label for v in versions)
    raise NotFoundError(f"no version {label!r} of {project} (indexed: {have})")


_counts: Memo[CountRow] = Memo()


def _version_counts(store: Store, record: VersionRecord) -> CountRow:
    def count() -> CountRow:
        sites = store.list_sites(project=record.project, version=record.label)
        by_exception = Counter(exception_label(s) for s in sites)
        by_kind = Counter(str(s.site.kind) for s in sites)
        by_file = Counter(s.file for s in sites)
        return CountRow(
            sites=len(sites),
            errors=len({s.id for s in sites}),
            by_kind=[KindRow(kind=k, count=n) for k, n in by_kind.most_common()],
            by_exception=[
                ExceptionRow(exception=e, count=n) for e, n in by_exception.most_common(TOP)
            ],
            files=[FileRow(path=f, sites=n) for f, n in by_file.most_common(TOP)],
        )

    key = (store.location, record.project, record.label, record.revision, record.indexed_at)
    return _counts.get(key, count)


def project_view(store: Store, name: str, version: str | None = None) -> ProjectPage:
    """`/api/projects/{project}`: its versions, and one version's errors counted."""
    project = next((p for p in store.projects() if p.name == name), None)
    if project is None:
        raise NotFoundError(f"no project named {name!r}")
    versions = store.versions(name)
    chosen = _choose(versions, name, version)
    counts = _version_counts(store, chosen)
    return ProjectPage(
        name=project.name,
        homepage=project.homepage,
        tracker_url=project.tracker_url,
        versions=[version_row(v) for v in versions],
        version=chosen.label,
        revision=chosen.revision,
        sites=counts.sites,
        errors=counts.errors,
        by_kind=counts.by_kind,
        by_exception=counts.by_exception,
        files=counts.files,
    )


def file_view(store: Store, project: str, version: str, path: str) -> FilePage:
    """`/api/projects/{project}/{version}/files/{path}`: the sites of one file."""
    chosen = _choose(store.versions(project), project, version)
    sites = store.list_sites(project=project, version=chosen.label, file=path)
    if not sites:
        raise NotFoundError(f"{project} {chosen.label} has no error sites in {path!r}")
    return FilePage(
        project=project,
        version=chosen.label,
        revision=chosen.revision,
        path=path,
        sites=[site_record(s) for s in sites],
    )
