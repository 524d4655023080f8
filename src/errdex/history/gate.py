"""A gate on error changes: two revisions of a repository indexed, diffed, and judged.

A pull request that rewords or removes a message users paste breaks their searches (and
errdex's own lookups of older releases); `errdex diff --git` makes that visible in CI or a
pre-commit hook, with the same diff `errdex diff` prints for two indexed versions.
"""

from __future__ import annotations

import msgspec

from errdex.errors import InputError
from errdex.history.diff import VersionDiff, diff_versions
from errdex.indexing import index_source
from errdex.sources import DirectorySource, GitSource, Source
from errdex.sources.git import worktree_files
from errdex.store.base import Store

CHANGES = ("added", "removed", "reworded", "moved")
WORKING_TREE = "working-tree"


def parse_fail_on(text: str) -> tuple[str, ...]:
    """`removed,reworded` → the change kinds to fail on; `any` means all four."""
    kinds = [part.strip().lower() for part in text.split(",") if part.strip()]
    if "any" in kinds:
        return CHANGES
    unknown = [kind for kind in kinds if kind not in CHANGES]
    if unknown or not kinds:
        raise InputError(
            f"--fail-on takes a comma-separated list of {', '.join(CHANGES)} or any (got {text!r})"
        )
    return tuple(kind for kind in CHANGES if kind in kinds)


def tripped(diff: VersionDiff, fail_on: tuple[str, ...]) -> dict[str, int]:
    """The changes among `fail_on` that the diff holds, with their counts."""
    counts = diff.counts
    return {kind: counts[kind] for kind in fail_on if counts[kind]}


def diff_revisions(
    store: Store, repo: str, old: str, new: str | None, *, workers: int | None = None
) -> VersionDiff:
    """Index revision `old` of the git repository `repo` and `new` (None: its working tree as
    it is now) into `store` as two versions of one project, and diff them.

    Both sides take the old side's project name, so a renamed package still compares; files
    unchanged between them come from the facts cache.
    """
    base = GitSource(repo, old, spec=f"{repo}@{old}")
    head: Source
    if new is None:  # what git would commit: ignored files (builds, scratch) are not code
        top, tracked = worktree_files(repo)
        head = DirectorySource(top, keep=tracked)
    else:
        head = GitSource(repo, new)
    label = WORKING_TREE if new is None else head.info.version
    if label == base.info.version:
        label = f"{label} ({head.info.revision[:12]})"
    head.info = msgspec.structs.replace(head.info, project=base.info.project, version=label)
    for source in (base, head):
        index_source(source, store, workers=workers)
    return diff_versions(store, base.info.project, base.info.version, head.info.version)
