"""The environment-wide hook: `errdex hook enable` writes a `.pth` file that runs `activate()`
at every start of Python in that environment.

Every interpreter start pays for this, so it imports nothing of errdex until an uncaught
exception actually happens. `ERRDEX_HOOK=0` turns it off for one run.
"""

from __future__ import annotations

import os
import sys
import threading
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

PTH_NAME = "errdex-hook.pth"
PTH_LINE = "import errdex.integrations.startup as s; s.activate()\n"


def _off() -> bool:
    return os.environ.get("ERRDEX_HOOK", "1").strip().lower() in {"0", "false", "no", "off"}


def activate() -> None:
    """Put a lazy hook in place: on the first uncaught exception, install errdex's hooks
    (chained onto the ones in place then) and hand the exception to them."""
    if _off():
        return
    sys_before, threading_before = sys.excepthook, threading.excepthook

    def _install() -> None:
        from errdex.hook import install

        sys.excepthook, threading.excepthook = sys_before, threading_before
        install(os.environ.get("ERRDEX_DB") or None)

    def lazy_sys(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        _install()
        sys.excepthook(kind, error, tb)

    def lazy_threading(args: Any) -> None:
        _install()
        threading.excepthook(args)

    sys.excepthook, threading.excepthook = lazy_sys, lazy_threading


def pth_path() -> Path:
    """Where the `.pth` file goes: this environment's site-packages."""
    import sysconfig
    from pathlib import Path

    return Path(sysconfig.get_paths()["purelib"]) / PTH_NAME


def enable() -> Path:
    path = pth_path()
    path.write_text(PTH_LINE)
    return path


def disable() -> Path | None:
    path = pth_path()
    if not path.exists():
        return None
    path.unlink()
    return path
