"""What indexing a version reports, apart from the indexing itself: reading a report (a
lookup's answer names what it indexed) need not import the extractor and the linker."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from errdex.sources.base import Skipped
from errdex.store.base import VersionStats

__all__ = ["PARTIAL_MARK", "IndexReport", "ProgressHook", "is_partial"]

# A version indexed from some of its files only (a first answer's); the next index completes it.
PARTIAL_MARK = "+partial"


def is_partial(pipeline: str) -> bool:
    """Whether a stored version's pipeline says it holds only some of its files."""
    return pipeline.endswith(PARTIAL_MARK)


class IndexReport(msgspec.Struct, kw_only=True):
    """What one version's indexing did: counts, reuse of the cache, what was skipped."""

    project: str
    version: str
    revision: str
    files: int
    parsed: int  # files extracted in this run
    cached: int  # files whose facts came from the cache
    # The second round, for calls of other files' raising helpers: files looked at again in
    # this run, and those of them parsed again (a body the skeleton blanked calls a helper).
    rechecked: int = 0
    reparsed: int = 0
    sites: int
    kinds: dict[str, int]
    skipped: list[Skipped]
    seconds: float
    stored: VersionStats | None = None
    up_to_date: bool = False  # the store already held this revision, made the same way
    partial: bool = False  # only some of the version's files (a first answer's)
    timings: dict[str, float] = {}  # seconds per stage: read, extract, again, link, write
    # Why nothing of the version was written: an error of errdex's own (a bug) stopped it.
    error: str | None = None


ProgressHook = Callable[[str, int, int], None]  # (stage, advance, total)
