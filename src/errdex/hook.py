"""The runtime hook: after an uncaught exception's traceback, print where it was raised.

`errdex.install()` sets `sys.excepthook`; `python -m errdex run script.py` runs a script
with it. The raising frame's file and line find the site exactly; when that file is not
indexed, the installed distribution that owns it is indexed first.
"""

from __future__ import annotations

import sys
import traceback
from types import TracebackType

from errdex.indexing.installed import index_missing
from errdex.match.installed import installed_versions
from errdex.match.lookup import rank
from errdex.match.paste import ErrorEvidence, Evidence, Frame
from errdex.match.results import LookupResult, Match
from errdex.render.console import InertConsole
from errdex.render.safe_text import safe_line
from errdex.store import open_store
from errdex.store.base import Store


def evidence_of(error: BaseException) -> Evidence:
    """The evidence an exception object gives: its class, message and frames, exactly."""
    frames = tuple(
        Frame(path=f.filename, line=f.lineno, function=f.name, code=f.line)
        for f in traceback.extract_tb(error.__traceback__)
    )
    exception = type(error).__qualname__
    return Evidence(errors=(ErrorEvidence(exception=exception, message=str(error), frames=frames),))


def match_exception(error: BaseException, store: Store) -> LookupResult:
    """Rank the sites for a live exception, indexing the installed code it came from."""
    evidence = evidence_of(error)
    index_missing(store, [f.path for f in evidence.errors[0].frames])
    # The hook runs in the process that raised: its installed releases are the paste's.
    here = installed_versions(p.name for p in store.projects())
    return rank(store, evidence, limit=3, installed=here)


def summary(match: Match) -> str:
    lines = [
        f"errdex: raised at {safe_line(match.file)}:{match.line} in {safe_line(match.function)} "
        f"({safe_line(match.project)} {safe_line(match.version)}, error {match.id})",
    ]
    if match.message:
        lines.append(f"  message: {safe_line(match.message)}")
    site = match.site.site if match.site else None
    if site is not None and site.conditions:
        conditions = "; ".join(c.statement for c in site.conditions)
        lines.append(f"  happens when: {safe_line(conditions)}")
    if match.url:
        lines.append(f"  source: {safe_line(match.url)}")
    lines.append(f"  more: errdex show {match.id}")
    return "\n".join(lines)


def _excepthook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
    sys.__excepthook__(kind, error, tb)
    if isinstance(error, KeyboardInterrupt):
        return
    try:
        store = open_store(_db)
        try:
            result = match_exception(error, store)
        finally:
            store.close()
    except Exception as failure:  # the user's error matters more than ours
        print(f"errdex: could not look this error up ({safe_line(str(failure))})", file=sys.stderr)
        return
    if result.matches:
        InertConsole(stderr=True).print(summary(result.matches[0]), markup=False)


_db: str | None = None


def install(db: str | None = None) -> None:
    """Print the matched error's summary under every uncaught traceback from now on."""
    global _db
    _db = db
    sys.excepthook = _excepthook
