"""Errors across versions: what a release added, removed, reworded, moved; each id's history."""

from __future__ import annotations

from errdex.history.diff import DiffEntry, SiteRef, VersionDiff, diff_versions
from errdex.history.markdown import diff_markdown
from errdex.history.pairing import Link, Pairing, pair_sites
from errdex.history.timeline import (
    Fate,
    HistoryEntry,
    Step,
    error_history,
    lineage,
    what_became,
    what_was,
)
from errdex.history.versions import NewestVersion, choose_version, settle_versions

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
    "choose_version",
    "diff_markdown",
    "diff_versions",
    "error_history",
    "lineage",
    "pair_sites",
    "settle_versions",
    "what_became",
    "what_was",
]
