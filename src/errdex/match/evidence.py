"""What a paste yields: each error it shows, with its message, frames and log facts."""

from __future__ import annotations

import msgspec

__all__ = ["ErrorEvidence", "Evidence", "Frame", "at_lines"]


class Frame(msgspec.Struct, frozen=True):
    """One traceback frame as printed."""

    path: str
    line: int | None
    function: str | None
    code: str | None


def at_lines(frame: Frame, file: str, line: int, end_line: int) -> bool:
    """The frame points into lines `line`..`end_line` of `file` (a path inside the version);
    the printed path may carry any prefix (site-packages, a checkout, a Windows drive), or
    have lost its start to the paste (`/models.py"` of a frame line cut at a folder)."""
    if frame.line is None or not (line <= frame.line <= end_line):
        return False
    path = frame.path.replace("\\", "/")
    return (
        path == file
        or path.endswith("/" + file)
        or (path.startswith("/") and ("/" + file).endswith(path))
    )


class ErrorEvidence(msgspec.Struct, frozen=True):
    """One error a paste shows: the exception as printed, its message, and where it came from."""

    exception: str | None  # as printed: "ValueError", "pkg.errors.ConfigError"
    message: str
    frames: tuple[Frame, ...] = ()  # innermost last
    truncated: bool = False
    level: str | None = None  # log lines only
    logger: str | None = None
    hint_file: str | None = None  # `[file.py:123]` log prefixes, `file.py:12: UserWarning: ...`
    hint_line: int | None = None
    hint_code: str | None = None  # the source line a printed warning shows under its place
    # Printed inside a rich panel (`╭─ Error ─╮`): a program that draws its errors so (typer,
    # rich-click), not plain click's `Error: ...`.
    boxed: bool = False
    # The message was one quoted value, as `str()` of a `KeyError` prints it (`ValueError:
    # 'nope'` of `raise ValueError(str(e))`): its quotes were taken off for reading it.
    quoted: bool = False

    def places(self) -> tuple[Frame, ...]:
        """Where the paste says this error passed, innermost first: its traceback's frames,
        then the place its log line or printed warning names (a warning's is often a
        caller's, by its `stacklevel`; a log prefix may print the file's name alone)."""
        hint: tuple[Frame, ...] = ()
        if self.hint_file is not None and self.hint_line is not None:
            hint = (Frame(self.hint_file, self.hint_line, None, self.hint_code),)
        return (*self.frames[::-1], *hint)


class Evidence(msgspec.Struct, frozen=True):
    """Every error found in a paste, most relevant first."""

    errors: tuple[ErrorEvidence, ...]
    # Frames of tracebacks the paste cut before their exception line, innermost first: they
    # belong to no error read, yet tell which release the paste came from.
    stray_frames: tuple[Frame, ...] = ()
