"""The runtime hook: after an uncaught exception's traceback, print where it was raised.

`errdex.install()` chains onto whatever hooks were installed before it (rich's traceback,
pretty_errors, IPython's) for `sys.excepthook` and `threading.excepthook`: they still print
the traceback, errdex adds its summary under it. `python -m errdex run script.py` runs a
script with it, and `errdex hook enable` turns it on for a whole environment. The raising
frame's file and line find the site exactly; when that file is not indexed, the installed
distribution that owns it is indexed first. The same summary serves the pytest plugin and
the IPython extension.
"""

from __future__ import annotations

import sys
import threading
from types import TracebackType
from typing import Any

from rich.text import Text

from errdex.match.exception import match_exception
from errdex.match.results import Match
from errdex.render.console import InertConsole, safe_link
from errdex.render.safe_text import safe_line
from errdex.store import open_store
from errdex.store.base import Store


def _first_solution(store: Store, match: Match) -> str | None:
    from errdex.explain import build_page

    try:
        page = build_page(store, match.id, match.version, use_model=False)
    except Exception:  # a summary without its solution is still worth printing
        return None
    return page.solutions[0].text if page.solutions else None


def summary(match: Match, solution: str | None = None) -> Text:
    """The one-screen summary: where it was raised, the message, when, the first way out, the
    id. The place links to the source where the terminal shows links (OSC 8)."""
    url = safe_link(match.url)
    text = Text("errdex: raised at ")
    text.append(f"{safe_line(match.file)}:{match.line}", style=f"link {url}" if url else "")
    text.append(
        f" in {safe_line(match.function)} ({safe_line(match.project)}"
        f" {safe_line(match.version)}, error {match.id})"
    )
    if match.message:
        text.append(f"\n  message: {safe_line(match.message)}")
    site = match.site.site if match.site else None
    if site is not None and site.conditions:
        conditions = "; ".join(c.statement for c in site.conditions)
        text.append(f"\n  happens when: {safe_line(conditions)}")
    if solution:
        text.append(f"\n  try: {safe_line(solution)}")
    if match.url:
        text.append(f"\n  source: {safe_line(match.url)}")
    text.append(f"\n  more: errdex show {match.id}")
    return text


def explain_exception(error: BaseException, db: str | None = None) -> Text | None:
    """The summary of the site that raised `error`, or None when nothing matches.

    Never raises: a failure of errdex's own is said in one line, since the user's error
    matters more than ours.
    """
    try:
        store = open_store(db)
        try:
            result = match_exception(error, store, limit=3)
            if not result.matches:
                return None
            best = result.matches[0]
            return summary(best, _first_solution(store, best))
        finally:
            store.close()
    except Exception as failure:
        return Text(f"errdex: could not look this error up ({safe_line(str(failure))})")


def print_summary(error: BaseException, db: str | None = None) -> None:
    """Print the summary for `error` on stderr, if anything matches."""
    if isinstance(error, KeyboardInterrupt | SystemExit):
        return
    text = explain_exception(error, db)
    if text is not None:
        InertConsole(stderr=True).print(text, markup=False)


class _ChainedHooks:
    """The hooks errdex wrapped, so that installing twice never prints twice."""

    def __init__(self, db: str | None) -> None:
        self.db = db
        self.previous_sys = sys.excepthook
        self.previous_threading = threading.excepthook

    def sys_hook(
        self, kind: type[BaseException], error: BaseException, tb: TracebackType | None
    ) -> None:
        self.previous_sys(kind, error, tb)
        print_summary(error, self.db)

    def threading_hook(self, args: Any) -> None:
        self.previous_threading(args)
        if args.exc_value is not None:
            print_summary(args.exc_value, self.db)


_installed: _ChainedHooks | None = None


def install(db: str | None = None) -> None:
    """Print the matched error's summary under every uncaught traceback from now on, in the
    main thread and in threads, after whatever hook printed the traceback before."""
    global _installed
    if _installed is not None and sys.excepthook == _installed.sys_hook:
        _installed.db = db
        return
    _installed = _ChainedHooks(db)
    sys.excepthook = _installed.sys_hook
    threading.excepthook = _installed.threading_hook


def uninstall() -> None:
    """Put back the hooks errdex wrapped."""
    global _installed
    if _installed is None:
        return
    if sys.excepthook == _installed.sys_hook:
        sys.excepthook = _installed.previous_sys
    if threading.excepthook == _installed.threading_hook:
        threading.excepthook = _installed.previous_threading
    _installed = None
