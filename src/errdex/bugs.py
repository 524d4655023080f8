"""errdex's own bugs met at run time: one line that names the error for the user, and the
traceback only when asked for (`ERRDEX_DEBUG=1`).

An exception that is no `ErrdexError` is a defect of errdex, never of the input: the file,
the version or the command it broke is given up with this line, and the rest goes on.
"""

from __future__ import annotations

import os
import sys

__all__ = ["DEBUG_VARIABLE", "INTERNAL", "bug_line", "debugging", "error_line", "show_traceback"]

DEBUG_VARIABLE = "ERRDEX_DEBUG"
# How a file's skip reason begins when errdex itself failed on it: such a result is not
# cached, so that a fixed errdex reads the file again.
INTERNAL = "internal error of errdex"
_LONGEST = 300  # characters of an error's line: a message may quote a whole file


def debugging() -> bool:
    """Whether `ERRDEX_DEBUG` asks for the tracebacks of errdex's own errors."""
    return os.environ.get(DEBUG_VARIABLE, "").strip() not in ("", "0")


def error_line(error: BaseException) -> str:
    """`Class: message` on one line, at most `_LONGEST` characters, every character a
    terminal acts on (controls, bidi marks) shown escaped, as `render.safe_text` does (not
    imported: the pipeline's stages use this, and render reads their results)."""
    text = " ".join(str(error).split())
    line = f"{type(error).__name__}: {text}" if text else type(error).__name__
    line = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in line)
    return line if len(line) <= _LONGEST else line[: _LONGEST - 1] + "…"


def bug_line(error: BaseException, what: str) -> str:
    """The line a user reads when errdex failed at `what` with `error`."""
    hint = "" if debugging() else f"; {DEBUG_VARIABLE}=1 shows the traceback"
    return (
        f"{what} failed with an internal error ({error_line(error)}): this is a bug in errdex"
        f" {_version()}; please report it{hint}"
    )


def show_traceback(error: BaseException) -> None:
    """Print `error`'s traceback on standard error when `ERRDEX_DEBUG` asks for it."""
    if debugging():
        import traceback

        traceback.print_exception(error, file=sys.stderr)
        sys.stderr.flush()


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("errdex")
    except metadata.PackageNotFoundError:
        return "(version unknown)"
