"""What a version write counts as its sites go by, and the stats it ends with."""

from __future__ import annotations

import time
from collections import Counter

from errdex.sources.base import VersionInfo
from errdex.store.base import VersionStats
from errdex.store.rows import referenced_files
from errdex.store.written import SiteRow


class WriteTally:
    """Kinds, error ids and the files to keep, counted site by site during one write."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.kinds: Counter[str] = Counter()
        self.error_ids: set[str] = set()
        self.wanted: set[str] = set()  # files the sites refer to

    def add(self, site: SiteRow) -> None:
        self.kinds[site.site.kind.value] += 1
        self.error_ids.add(site.id)
        self.wanted.update(referenced_files(site))

    def stats(self, info: VersionInfo, files: int, new_blobs: int, replaced: bool) -> VersionStats:
        """The stats of the finished write: `files` kept, `new_blobs` of them stored anew."""
        return VersionStats(
            project=info.project,
            version=info.version,
            sites=sum(self.kinds.values()),
            errors=len(self.error_ids),
            files=files,
            new_blobs=new_blobs,
            kinds=dict(sorted(self.kinds.items())),
            replaced=replaced,
            seconds=round(time.perf_counter() - self.started, 4),
            pipeline=info.pipeline,
        )
