"""Errors across versions: what a release added, removed, reworded, moved; each id's history."""

from __future__ import annotations

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
