"""Matching: pasted text → evidence → candidate sites → verified, ranked matches."""

from __future__ import annotations

from errdex.match.installed import InstalledHere
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
    installed: bool = False,
) -> LookupResult:
    """Find the sites that raised what `text` shows (a message, traceback or log line).

    With `installed`, the lookup runs where the error happened: the releases installed
    here (read from distribution metadata, nothing imported) tell which release a paste
    came from when the paste itself does not.
    """
    evidence = parse_paste(text)
    here = InstalledHere() if installed else None
    return rank(store, evidence, project=project, version=version, limit=limit, installed=here)
