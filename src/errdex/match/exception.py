"""A live exception matched: its class, message and frames read from the object itself (no
paste to parse), the installed distributions its frames are in indexed first, its sites
ranked against the releases installed in this process."""

from __future__ import annotations

import traceback

from errdex.indexing.installed import index_missing
from errdex.match.installed import InstalledHere
from errdex.match.lookup import rank
from errdex.match.paste import ErrorEvidence, Evidence, Frame
from errdex.match.results import LookupResult
from errdex.store.base import Store

__all__ = ["evidence_of", "match_exception"]


def evidence_of(error: BaseException) -> Evidence:
    """The evidence an exception object gives: its class, message and frames, exactly."""
    frames = tuple(
        Frame(path=f.filename, line=f.lineno, function=f.name, code=f.line)
        for f in traceback.extract_tb(error.__traceback__)
    )
    exception = type(error).__qualname__
    return Evidence(errors=(ErrorEvidence(exception=exception, message=str(error), frames=frames),))


def match_exception(error: BaseException, store: Store, *, limit: int = 3) -> LookupResult:
    """Rank the sites for a live exception, indexing the installed code it came from."""
    evidence = evidence_of(error)
    index_missing(store, [f.path for f in evidence.errors[0].frames])
    # The exception was raised in this process: its installed releases are the ones here.
    return rank(store, evidence, limit=limit, installed=InstalledHere())
