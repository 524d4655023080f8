"""What each page shows, as plain data: the JSON twin returns it and the HTML draws it.

Error pages are `errdex.explain`'s `Page`; the rest (projects, files, search) are built here
from the store, with nothing a reader of the JSON could not also see in the HTML.
"""

from __future__ import annotations

import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from errdex.errors import InputError, NotFoundError
from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.match import LookupResult, lookup_text
from errdex.render.records import site_record
from errdex.store.base import Store, StoredSite, VersionRecord

T = TypeVar("T")

MAX_QUERY = 1_000_000  # the end of a paste holds the error: keep its last megabyte
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


def _version_row(record: VersionRecord) -> dict[str, Any]:
    stats = record.stats
    return {
        "label": record.label,
        "revision": record.revision,
        "date": record.date,
        "indexed_at": record.indexed_at,
        "source_kind": record.source_kind,
        "sites": stats.sites,
        "errors": stats.errors,
        "files": stats.files,
    }


def projects_view(store: Store) -> dict[str, Any]:
    """`/api/projects`: every project with its newest version."""
    rows: list[dict[str, Any]] = []
    for project in store.projects():
        versions = store.versions(project.name)
        newest = _version_row(versions[0]) if versions else None
        rows.append(
            {
                "name": project.name,
                "homepage": project.homepage,
                "tracker_url": project.tracker_url,
                "versions": [v.label for v in versions],
                "newest": newest,
            }
        )
    return {"projects": rows}


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


_counts: Memo[dict[str, Any]] = Memo()


def _version_counts(store: Store, record: VersionRecord) -> dict[str, Any]:
    def count() -> dict[str, Any]:
        sites = store.list_sites(project=record.project, version=record.label)
        by_exception = Counter(exception_label(s) for s in sites)
        by_kind = Counter(str(s.site.kind) for s in sites)
        by_file = Counter(s.file for s in sites)
        return {
            "sites": len(sites),
            "errors": len({s.id for s in sites}),
            "by_kind": [{"kind": k, "count": n} for k, n in by_kind.most_common()],
            "by_exception": [
                {"exception": e, "count": n} for e, n in by_exception.most_common(TOP)
            ],
            "files": [{"path": f, "sites": n} for f, n in by_file.most_common(TOP)],
        }

    key = (store.location, record.project, record.label, record.revision, record.indexed_at)
    return _counts.get(key, count)


def project_view(store: Store, name: str, version: str | None = None) -> dict[str, Any]:
    """`/api/projects/{project}`: its versions, and one version's errors counted."""
    project = next((p for p in store.projects() if p.name == name), None)
    if project is None:
        raise NotFoundError(f"no project named {name!r}")
    versions = store.versions(name)
    chosen = _choose(versions, name, version)
    return {
        "name": project.name,
        "homepage": project.homepage,
        "tracker_url": project.tracker_url,
        "versions": [_version_row(v) for v in versions],
        "version": chosen.label,
        "revision": chosen.revision,
        **_version_counts(store, chosen),
    }


def file_view(store: Store, project: str, version: str, path: str) -> dict[str, Any]:
    """`/api/projects/{project}/{version}/files/{path}`: the sites of one file."""
    chosen = _choose(store.versions(project), project, version)
    sites = store.list_sites(project=project, version=chosen.label, file=path)
    if not sites:
        raise NotFoundError(f"{project} {chosen.label} has no error sites in {path!r}")
    return {
        "project": project,
        "version": chosen.label,
        "revision": chosen.revision,
        "path": path,
        "sites": [site_record(s) for s in sites],
    }


def clean_query(text: str | None) -> str:
    """The pasted text to look up: its last megabyte, without NULs; empty is an error."""
    text = (text or "")[-MAX_QUERY:].replace("\x00", "")
    if not text.strip():
        raise InputError("give the error to look up: a message, a traceback or a log line")
    return text


def search_view(
    store: Store,
    text: str,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
) -> tuple[dict[str, Any], LookupResult]:
    """`/api/search`: the ranked matches of a paste (the nearest templates when none)."""
    result = lookup_text(store, text, project=project, version=version, limit=limit)
    record = {
        "matches": [m.record() for m in result.matches],
        "nearest": [m.record() for m in result.nearest],
    }
    return record, result


_ERROR_ID = re.compile(r"[0-9a-f]{16}")


def error_id_of(address: str) -> str:
    """The error id an address names, in lower case; NotFoundError when it names none."""
    error_id = address.strip().lower()
    if not _ERROR_ID.fullmatch(error_id):
        raise NotFoundError(f"no error with id {error_id[:40]!r}: an id is 16 hex digits")
    return error_id


def error_page(store: Store, error_id: str, version: str | None = None) -> Page:
    """`/api/errors/{id}`: the page of an error (at `version`, else its newest)."""
    return build_page(store, error_id_of(error_id), version)
