"""Pasted text (a message, traceback, log, notebook or pytest output) → structured evidence.

The text is cleaned (`paste_cleanup.py`), split into lines with their log prefixes read off
(`paste_lines.py`) and read into errors (`paste_parser.py`); a second look here settles
class names the parser did not trust and frames it did not attach.
"""

from __future__ import annotations

import re

import msgspec

from errdex.errors import InputError
from errdex.lazy_re import lazy_compile
from errdex.match.evidence import ErrorEvidence, Evidence, Frame
from errdex.match.paste_cleanup import guard, prepare
from errdex.match.paste_lines import read_lines
from errdex.match.paste_parser import Parser

__all__ = ["ErrorEvidence", "Evidence", "Frame", "parse_paste"]


def parse_paste(text: str, *, max_bytes: int = 1_000_000) -> Evidence:
    """Find every error in pasted text; raise `InputError` for empty or binary input."""
    lines = prepare(guard(text, max_bytes))
    parser = Parser(read_lines(lines))
    errors = parser.run()
    if not errors:
        raise InputError("nothing to look up: no text is left once markup is removed")
    return Evidence(tuple(_refine(errors, lines)), stray_frames=tuple(parser.stray[:50]))


# `MissingSchema: ...`, `pkg.mod.InvalidRequirement: ...`: a class name without a telling
# suffix, trusted when dotted or CamelCase (two capitals), so `Note: ...` stays prose.
_CLASS_HEAD = lazy_compile(
    r"(?P<name>(?:[A-Za-z_]\w{0,80}\.){0,12}[A-Z]\w{1,80}?)(?::|: (?P<msg>\S.*))$",
    re.DOTALL,
)
# `pkg.module.ClassName: ` anywhere in a line: module parts in lower case, then a class.
_QUALIFIED_HEAD = lazy_compile(
    r"(?<![\w.])(?P<name>(?:[a-z_][a-z0-9_]{0,40}\.){1,8}[A-Z][A-Za-z0-9_]{1,80}): (?=\S)"
)
# `pkg.module.ClassName` alone: what Python prints for a package's exception whose message
# is empty (a builtin's bare name, `NotImplementedError`, the parser reads already).
_QUALIFIED_ALONE = lazy_compile(r"(?:[a-z_][a-z0-9_]{0,40}\.){1,8}[A-Z][A-Za-z0-9_]{1,80}")
# A frame line anywhere, in any quotes (word processors turn `"` into `“”`).
_ANY_FRAME = lazy_compile(
    r'\s*File ["\'](?P<path>[^"\'\n]{1,500})["\'], line (?P<line>\d{1,7})'
    r"(?:, in (?P<fn>\S{1,200}))?"
)


def _refine(errors: list[ErrorEvidence], lines: list[str]) -> list[ErrorEvidence]:
    """Second looks: a class name the parser did not trust, frames it did not attach."""
    out: list[ErrorEvidence] = []
    for error in errors:
        if error.exception is None and (inner := _QUALIFIED_HEAD.search(error.message)):
            # `raise X(e) from e pkg.mod.X: msg`: a code line glued to the error line
            error = msgspec.structs.replace(
                error, exception=inner["name"], message=error.message[inner.end() :]
            )
        if error.exception is None and (m := _CLASS_HEAD.match(error.message.strip())):
            name = m["name"]
            if "." in name or sum(c.isupper() for c in name) >= 2:
                error = msgspec.structs.replace(error, exception=name, message=m["msg"] or "")
                stem = error.message.rstrip(".…")
                if any(e.exception == name and e.message.startswith(stem) for e in out):
                    continue  # a summary line repeating an error already read in full
        if error.exception is None and _QUALIFIED_ALONE.fullmatch(error.message.strip()):
            error = msgspec.structs.replace(error, exception=error.message.strip(), message="")
        if any((e.exception, e.message) == (error.exception, error.message) for e in out):
            continue  # the same error read twice (a log line and the exception it holds)
        out.append(error)
    if out and not any(e.frames for e in out):
        # Frames printed after the message (Sentry, some loggers), or without a header.
        frames = tuple(
            Frame(m["path"], int(m["line"]), m["fn"], None)
            for line in lines
            if "File " in line and (m := _ANY_FRAME.match(line))
        )
        if frames:
            first = next((i for i, e in enumerate(out) if e.exception), 0)
            out[first] = msgspec.structs.replace(out[first], frames=frames)
    return out
