"""Errors across versions: what a release added, removed, reworded, moved; each id's history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from errdex.lazy_names import lazy_names

if TYPE_CHECKING:
    from errdex.history.diff import DiffEntry, SiteRef, VersionDiff, diff_versions
    from errdex.history.markdown import diff_markdown
    from errdex.history.pairing import Link, Pairing, pair_sites
    from errdex.history.timeline import (
        Fate,
        HistoryEntry,
        NewestVersion,
        Step,
        error_history,
        lineage,
        newest_of,
        what_became,
        what_was,
    )

# Each part loads on first use: a lookup reads the versions' labels (`timeline`) and needs
# neither the diff nor its Markdown.
_LAZY = {
    "DiffEntry": "errdex.history.diff",
    "SiteRef": "errdex.history.diff",
    "VersionDiff": "errdex.history.diff",
    "diff_versions": "errdex.history.diff",
    "diff_markdown": "errdex.history.markdown",
    "Link": "errdex.history.pairing",
    "Pairing": "errdex.history.pairing",
    "pair_sites": "errdex.history.pairing",
    "Fate": "errdex.history.timeline",
    "HistoryEntry": "errdex.history.timeline",
    "NewestVersion": "errdex.history.timeline",
    "Step": "errdex.history.timeline",
    "error_history": "errdex.history.timeline",
    "lineage": "errdex.history.timeline",
    "newest_of": "errdex.history.timeline",
    "what_became": "errdex.history.timeline",
    "what_was": "errdex.history.timeline",
}


__getattr__ = lazy_names(globals(), _LAZY)


__all__ = [
    "DiffEntry",
    "Fate",
    "HistoryEntry",
    "Link",
    "NewestVersion",
    "Pairing",
    "SiteRef",
    "Step",
    "VersionDiff",
    "diff_markdown",
    "diff_versions",
    "error_history",
    "lineage",
    "newest_of",
    "pair_sites",
    "what_became",
    "what_was",
]
