"""Matching: pasted text → evidence → candidate sites → verified, ranked matches."""

from __future__ import annotations

from errdex.match.lookup import rank
from errdex.match.paste import ErrorEvidence, Evidence, Frame, parse_paste
from errdex.match.results import LookupAnswer, LookupResult, Match, MatchRecord, VariantMatch
from errdex.store.base import Store

__all__ = [
    "ErrorEvidence",
    "Evidence",
    "Frame",
    "LookupAnswer",
    "LookupResult",
    "Match",
    "MatchRecord",
    "VariantMatch",
    "lookup_text",
    "parse_paste",
]


def lookup_text(
    store: Store,
    text: str,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
) -> LookupResult:
    """Find the sites that raised what `text` shows (a message, traceback or log line)."""
    return rank(store, parse_paste(text), project=project, version=version, limit=limit)
