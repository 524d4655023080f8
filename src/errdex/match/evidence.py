"""What a paste yields: each error it shows, with its message, frames and log facts."""

from __future__ import annotations

import re

import msgspec

__all__ = ["ErrorEvidence", "Evidence", "Frame", "at_lines", "printed_call"]


class Frame(msgspec.Struct, frozen=True):
    """One traceback frame as printed."""

    path: str
    line: int | None
    function: str | None
    code: str | None


def at_lines(frame: Frame, file: str, line: int, end_line: int) -> bool:
    """The frame points into lines `line`..`end_line` of `file` (a path inside the version);
    the printed path may carry any prefix (site-packages, a checkout, a Windows drive)."""
    if frame.line is None or not (line <= frame.line <= end_line):
        return False
    path = frame.path.replace("\\", "/")
    return path == file or path.endswith("/" + file)


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


# `name(` or `receiver.name(` in a printed code line; bounded, as every pattern on a paste.
_CALL = re.compile(
    r"(?:(?P<receiver>[A-Za-z_]\w{0,80})\s{0,4}\.\s{0,4})?(?P<name>[A-Za-z_]\w{0,80})\s{0,4}\("
)


def printed_call(code: str | None, function: str, file: str) -> int:
    """How the code line a printed warning shows under its place calls the site's function:
    2 when the call's receiver also names its class or module (`jws.encode(` for
    `PyJWS.encode`), 1 by the function's name alone, 0 not at all.

    A warning's `stacklevel` points past the function that warns, at the line that called
    it: a line calling `encode(` came through an `encode` (the one a user called).
    """
    parts = [p for p in function.split(".") if p != "<locals>"]
    if not code or not parts or parts[-1].startswith("<"):
        return 0
    best = 0
    for found in _CALL.finditer(code[:2000]):
        if found["name"] != parts[-1]:
            continue
        best = max(best, 1)
        receiver = (found["receiver"] or "").strip("_").lower()
        owners = [p.lower() for p in parts[:-1]]
        owners.append(file.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".py").lower())
        if len(receiver) >= 3 and any(
            owner == receiver or owner.endswith(receiver) for owner in owners
        ):
            return 2
    return best
