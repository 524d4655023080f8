"""`diff_versions`: the errors one version of a project added, removed, reworded and moved."""

from __future__ import annotations

import msgspec

from errdex.errors import NotFoundError
from errdex.history.pairing import Link, exception_name, pair_sites, template_text
from errdex.store.base import Store, StoredSite


class SiteRef(msgspec.Struct, frozen=True, kw_only=True):
    """One side of a diff entry: an error id and its site in one version."""

    id: str
    exception: str | None  # the class's short name (the category of a warning)
    template: str | None
    file: str
    line: int
    function: str
    module: str
    url: str | None = None  # "view source" at that version, when the source has a link


class DiffEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An added (`new` only), removed (`old` only), reworded or moved (both) error."""

    kind: str  # raise, assert, warn, log, ...
    old: SiteRef | None = None
    new: SiteRef | None = None
    similarity: float | None = None  # reworded: difflib ratio of the two templates
    change: list[str] = []  # moved: what differs, of "file", "function"

    @property
    def where(self) -> SiteRef:
        """The side a reader looks at: the new one, else the old."""
        side = self.new or self.old
        assert side is not None
        return side


class VersionDiff(msgspec.Struct, kw_only=True):
    """Every error of two versions of one project, in one of five places."""

    project: str
    old: str
    new: str
    # How many errors are in each place: made from the lists, and from `unchanged` given
    # here (`counts={"unchanged": n}`), for readers that only count.
    counts: dict[str, int] = {}
    added: list[DiffEntry] = []
    removed: list[DiffEntry] = []
    reworded: list[DiffEntry] = []
    moved: list[DiffEntry] = []

    def __post_init__(self) -> None:
        self.counts = {
            "added": len(self.added),
            "removed": len(self.removed),
            "reworded": len(self.reworded),
            "moved": len(self.moved),
            "unchanged": self.counts.get("unchanged", 0),
        }

    @property
    def unchanged(self) -> int:
        """How many errors are the same in both versions."""
        return self.counts["unchanged"]


def site_ref(stored: StoredSite) -> SiteRef:
    return SiteRef(
        id=stored.id,
        exception=exception_name(stored),
        template=template_text(stored),
        file=stored.file,
        line=stored.site.line,
        function=stored.site.function,
        module=stored.module,
        url=stored.url,
    )


def _link_entry(link: Link) -> DiffEntry:
    change = []
    if link.old.file != link.new.file:
        change.append("file")
    if link.old.site.function != link.new.site.function:
        change.append("function")
    return DiffEntry(
        kind=str(link.new.site.kind),
        old=site_ref(link.old),
        new=site_ref(link.new),
        similarity=link.similarity if link.status == "reworded" else None,
        change=change if link.status == "moved" else [],
    )


def _order(entries: list[DiffEntry]) -> list[DiffEntry]:
    return sorted(entries, key=lambda e: (e.where.file, e.where.line, e.where.id))


def diff_versions(store: Store, project: str, old: str, new: str) -> VersionDiff:
    """What changed in the errors of `project` from version `old` to version `new`.

    Raises `NotFoundError` for an unknown project or version.
    """
    labels = {record.label: record.label for record in store.versions(project)}
    for label in (old, new):
        if label not in labels:
            have = ", ".join(labels) or "none"
            raise NotFoundError(f"no version {label!r} of {project} (indexed: {have})")
    pairing = pair_sites(store.list_sites(project, old), store.list_sites(project, new))
    return VersionDiff(
        project=project,
        old=old,
        new=new,
        added=_order([DiffEntry(kind=str(s.site.kind), new=site_ref(s)) for s in pairing.added]),
        removed=_order(
            [DiffEntry(kind=str(s.site.kind), old=site_ref(s)) for s in pairing.removed]
        ),
        reworded=_order([_link_entry(link) for link in pairing.reworded]),
        moved=_order([_link_entry(link) for link in pairing.moved]),
        counts={"unchanged": len(pairing.unchanged)},
    )
