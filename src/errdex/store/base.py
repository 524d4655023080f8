"""The store's contract: the records it returns and the `Store` every backend implements."""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType

import msgspec

from errdex.facts import SiteKind
from errdex.linked_facts import IndexedSite
from errdex.sources.base import EntryPoint, Pin, VersionInfo

# A version is named by its row id, or by (project, label).
VersionRef = int | tuple[str, str]


class StoredSite(IndexedSite, frozen=True, kw_only=True):
    """An `IndexedSite` as read back: with the version that holds it and its "view" link."""

    project: str
    version: str  # the version label
    revision: str
    version_id: int
    url: str | None = None  # the link template filled in for this site's file and line


class Neighbour(msgspec.Struct, frozen=True, kw_only=True):
    """A site as a list of the other errors of its file shows it: read without the rest of
    its facts, since a page lists dozens."""

    id: str
    line: int
    function: str
    kind: SiteKind
    exception: str | None  # the resolved class's name, else as written at the site
    message: str | None  # the template's text
    names: tuple[str, ...] = ()  # the free names of its conditions


class VersionStats(msgspec.Struct, frozen=True, kw_only=True):
    """What one `write_version` stored."""

    project: str
    version: str
    sites: int
    errors: int  # distinct error ids
    files: int  # source files kept for snippets (those that hold sites)
    new_blobs: int  # file contents no other version had stored already
    kinds: dict[str, int] = {}  # site kind → count
    replaced: bool = False  # an earlier index of the same label was replaced
    seconds: float = 0.0
    pipeline: str = ""  # the versions of extraction and linking that made these sites


class ProjectRecord(msgspec.Struct, frozen=True, kw_only=True):
    """An indexed project."""

    name: str
    tracker_url: str | None = None
    homepage: str | None = None
    versions: int = 0


class VersionRecord(msgspec.Struct, frozen=True, kw_only=True):
    """An indexed version of a project, with the stats of its last write."""

    id: int
    project: str
    label: str
    revision: str
    date: str | None
    source_kind: str
    source: str
    link_template: str | None
    indexed_at: str  # ISO 8601, UTC
    stats: VersionStats
    entry_points: tuple[EntryPoint, ...] = ()  # the commands it installs
    pin: Pin | None = None  # what its link points at, when its source said (`Pin`)


class AnalysisRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A model's explanation of one error at one revision, or why it was rejected."""

    error_id: str
    revision: str
    model: str
    prompt_version: str
    status: str  # "ok" or "rejected"
    body: str | None = None  # the validated answer as JSON, when ok
    reason: str | None = None  # why it was rejected
    created_at: str  # ISO 8601, UTC


class Store(abc.ABC):
    """Where indexed versions live: SQLite or PostgreSQL, behind the same methods.

    Readers raise `NotFoundError` for a project, version or error id the store lacks, and
    every backend failure surfaces as `StoreError`.
    """

    @property
    @abc.abstractmethod
    def location(self) -> str:
        """Where the data lives (a file path or a URL without credentials), for messages."""

    # Writing -----------------------------------------------------------------------------

    @abc.abstractmethod
    def write_version(
        self,
        info: VersionInfo,
        sites: Iterable[IndexedSite],
        files: Mapping[str, bytes],
    ) -> VersionStats:
        """Store one version in one transaction, replacing an earlier index of its label.

        `files` maps paths to contents; only those that hold a site (or a variant, or the
        definition of a site's exception) are kept. If anything fails, or the process
        dies, the store keeps what it held before.
        """

    def write_version_aside(
        self,
        info: VersionInfo,
        sites: Iterable[IndexedSite],
        files: Mapping[str, bytes],
        meanwhile: Callable[[], None] | None = None,
    ) -> VersionStats:
        """`write_version`, by another process where the store can, so that the sites are
        written while `sites` still makes them (see `store.aside`); else the sites are all
        made first, and written as `write_version` does. `meanwhile` is called once the
        last site is made, while what is left of the write goes on (here: before it)."""
        made = list(sites)
        if meanwhile is not None:
            meanwhile()
        return self.write_version(info, made, files)

    @abc.abstractmethod
    def has_version(self, project: str, label: str, revision: str) -> bool:
        """True when (project, label) is stored at exactly this revision."""

    @abc.abstractmethod
    def delete_version(self, project: str, label: str) -> None:
        """Remove one version's sites and files; error identities stay."""

    # Reading -----------------------------------------------------------------------------

    @abc.abstractmethod
    def projects(self) -> list[ProjectRecord]:
        """Every project, by name."""

    @abc.abstractmethod
    def versions(self, project: str) -> list[VersionRecord]:
        """The versions of a project, newest first."""

    @abc.abstractmethod
    def list_sites(
        self,
        project: str | None = None,
        version: str | None = None,
        file: str | None = None,
        limit: int | None = None,
    ) -> list[StoredSite]:
        """Sites filtered by project, version label and file, by project, version, file, line."""

    @abc.abstractmethod
    def neighbours(self, version_id: int, file: str) -> list[Neighbour]:
        """The sites of one file of a version, by line."""

    @abc.abstractmethod
    def get_error(self, error_id: str) -> list[StoredSite]:
        """The sites of one error id, one per version holding it, newest version first."""

    @abc.abstractmethod
    def file_text(self, version: VersionRef, path: str) -> str | None:
        """A stored source file of a version, or None when it was not kept."""

    def file_outline(self, version_id: int, path: str) -> tuple[int, ...] | None:
        """The lines that start a stored file's top-level statements (1-based, as
        `extract.module.top_starts` found them), or None when not known (a content an
        older errdex stored, a store that keeps none)."""
        return None

    def kept_paths(self, version_id: int, folder: str) -> tuple[str, ...]:
        """The paths of a version's kept files (those holding sites) right in `folder`
        (`pkg/sub/`, with its slash; not in a folder under it), sorted; none from a store
        that cannot say."""
        return ()

    def version_paths(self, version_id: int) -> tuple[str, ...]:
        """The paths of all of a version's kept files, sorted; none from a store that
        cannot say."""
        return ()

    @abc.abstractmethod
    def search_candidates(
        self,
        terms: Sequence[str],
        project: str | None = None,
        version: str | None = None,
        limit: int = 200,
        rarest: int | None = None,
    ) -> list[StoredSite]:
        """Sites whose message, reasons or exception share words with `terms`, best first.

        With `rarest=k`, only texts that hold every one of the k rarest terms: a narrow,
        fast search to try before the wide one.

        Each term is matched as a quoted phrase (any term may match); terms are never
        read as query syntax. Terms that half the indexed texts hold are left out unless
        all are (they cannot change a bm25 ranking). Each version's copy of a site is its
        own candidate, so without `version` one error may fill several places.
        """

    @abc.abstractmethod
    def sites_raising(
        self,
        name: str,
        project: str | None = None,
        version: str | None = None,
        limit: int = 200,
        *,
        bare: bool = False,
        computed: bool = False,
    ) -> list[StoredSite]:
        """Sites whose exception class is called `name` (its last component), newest first.

        With `bare`, only the raises without a message (`raise NotImplementedError`), the
        first of each version first: what a paste of the class alone can come from, spread
        over the catalog rather than all from the version indexed last. With `computed`,
        likewise the raises with a message of values alone, no word of it written at the
        raise (`raise KeyError(key)`): what a paste of one value (`KeyError: 'k'`) can
        come from."""

    @abc.abstractmethod
    def sites_of_kind(
        self, kind: str, project: str, version: str | None = None, limit: int = 2000
    ) -> list[StoredSite]:
        """Sites of one kind (`log`, `warn`, ...) of a project, in any version or in one."""

    @abc.abstractmethod
    def sites_in_files(
        self,
        paths: Sequence[str],
        line: int | None = None,
        project: str | None = None,
        version: str | None = None,
    ) -> list[StoredSite]:
        """Sites whose file is one of `paths` (relative paths, as indexed), in any version;
        with `line`, only the sites whose statement spans it."""

    @abc.abstractmethod
    def public_path_of(self, version_id: int, name: str) -> str | None:
        """The public import path of a top-level class or function of a version
        (`WSGITransport` → `httpx.WSGITransport`), read from the sites inside it; None when
        it holds none or no public module reaches it."""

    def class_sites(self, version_id: int, name: str) -> list[StoredSite]:
        """The sites of a version in the methods of top-level classes called `name` (any
        file); none from a store that cannot say."""
        return []

    def sites_naming(self, version_id: int, name: str) -> list[StoredSite]:
        """The sites of a version whose stored facts hold `name` anywhere (a setting's, a
        key's: letters, digits, `_` and `-`), for a rule to read for what it needs; a scan
        of the version's rows, so asked only for a page that needs it. Empty from a store
        that cannot say."""
        return []

    @abc.abstractmethod
    def defined_names(self, version_id: int) -> frozenset[str]:
        """The names a version defines (empty when it was indexed before they were kept)."""

    @abc.abstractmethod
    def stats(self, project: str, version: str | None = None) -> VersionStats:
        """The stats of a version (the newest when `version` is None)."""

    @abc.abstractmethod
    def generation(self) -> str:
        """A token of what the store holds, read in one small query: every committed write
        (a version indexed or removed, an analysis kept) gives a new one, and nothing else
        does. The same in every process and on every machine using the database, and
        across restarts. Each database draws an identity of its own when it is made, so
        two never share a token (unless one is a copy of the other's file)."""

    # Model analyses ----------------------------------------------------------------------

    @abc.abstractmethod
    def put_analysis(self, record: AnalysisRecord) -> None:
        """Keep a model's analysis (or its rejection), replacing one with the same key."""

    @abc.abstractmethod
    def get_analysis(
        self,
        error_id: str,
        revision: str,
        model: str | None = None,
        prompt_version: str | None = None,
    ) -> AnalysisRecord | None:
        """The analysis of an error at a revision: for `model` and `prompt_version` when
        given, else the newest accepted one of any model."""

    @abc.abstractmethod
    def analysed_errors(self, revision: str, model: str, prompt_version: str) -> set[str]:
        """The error ids already analysed (accepted or rejected) for this key: what a
        resumed run skips."""

    # Lifetime ----------------------------------------------------------------------------

    @abc.abstractmethod
    def close(self) -> None:
        """Release the connection; the store cannot be used afterwards."""

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
