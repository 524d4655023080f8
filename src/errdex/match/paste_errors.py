"""An error as read from a paste, and what makes it evidence: its message tidied (quotes,
ellipses, `Did you mean` suffixes, a cut-off marked truncated) and the errors the message
wraps (`Failed: ValueError: x`, `KeyError('k')`).
"""

from __future__ import annotations

import ast

import msgspec

from errdex.lazy_re import lazy_compile
from errdex.match.evidence import ErrorEvidence, Frame
from errdex.match.paste_lines import Line
from errdex.match.paste_patterns import SUFFIX
from errdex.syntax_lock import SYNTAX_TREES

_INNER = lazy_compile(rf"{SUFFIX}(?=: |\(['\"])")  # `...: ValueError: msg`, `RuntimeError('msg')`
# Python's own suggestion (`... Did you mean: 'print'?`, `Did you forget to import 'sys'?`),
# added after the message; a library's `Did you mean '0'?` is part of its message.
_DID_YOU_MEAN = lazy_compile(r"\.? ?Did you (?:mean: |forget to import\b)[^\n]{0,300}\?\s*$")
_TRUNC = ("...", "…", "[...]", "(truncated)", "[truncated]", "<truncated>")
# A message quoted inside prose (`I keep getting "No available memory for ..." when ...`):
# quotes at word edges, so that an apostrophe (`don't`, `model's`) opens or closes nothing.
_QUOTED = lazy_compile(r"""(?<!\w)["`“‘'](?P<span>[^\n"`“”‘’]{8,500}?)["`”’'](?!\w)""")


class Err(msgspec.Struct):
    """An error as the parser read it, before its message is tidied."""

    exception: str | None
    message: str
    frames: list[Frame] = msgspec.field(default_factory=list)
    start: Line | None = None  # a log line's prefix facts
    truncated: bool = False
    code: str | None = None  # the source line printed under a warning's place
    boxed: bool = False  # printed inside a rich panel

    def evidence(self) -> ErrorEvidence:
        message, truncated, quoted = _clean(self.exception, self.message)
        ln = self.start or Line("")
        return ErrorEvidence(
            self.exception, message, tuple(self.frames), truncated or self.truncated,
            ln.level, ln.logger, ln.hint_file, ln.hint_line, self.code, self.boxed, quoted,
        )  # fmt: skip


def inner_errors(err: Err) -> list[Err]:
    """Errors an application wrapped into its message: `Failed: ValueError: x`, `KeyError('k')`."""
    out: list[Err] = []
    msg = err.message
    for m in _INNER.finditer(msg):
        start = m.start()
        while start > 0 and (msg[start - 1].isalnum() or msg[start - 1] in "_."):
            start -= 1
        name = msg[start : m.end()].lstrip(".")
        last = name.rsplit(".", 1)[-1]
        # A bare `Error: ` inside prose ("404 Client Error: Not Found") is no class name.
        if not (name[:1].isalpha() or name[:1] == "_") or not last[:1].isupper() or last == "Error":
            continue
        rest = msg[m.end() :]
        if start and msg[start - 1] in "`'\"" and (close := rest.find(msg[start - 1])) > 0:
            rest = rest[:close]  # quoted inside prose: I get `ValueError: x` when ...
        if rest.startswith(": "):
            out.append(Err(name, rest[2:], truncated=err.truncated))
        elif (inner := _repr_string(rest[1:])) is not None:
            out.append(Err(name, inner))
        if len(out) >= 4:
            break
    if err.exception is None and not err.frames and not out:
        out += _quoted(msg)
    return out


def _quoted(prose: str) -> list[Err]:
    """Messages quoted inside prose, of three words or more: each may be the start of a
    message (users quote what they remember of it), so it is read as possibly cut short."""
    out: list[Err] = []
    if prose.lstrip()[:1] in "{[" or '": ' in prose:
        return out  # a JSON document, not prose: its strings are fields, read as such
    for m in _QUOTED.finditer(prose[:20_000]):
        span = m["span"].strip()
        if len(span.split()) >= 3 and len(span) < len(prose.strip()) - 2:
            out.append(Err(None, span, truncated=True))
        if len(out) >= 2:
            break
    return out


def _repr_string(text: str) -> str | None:
    """The value of the Python string literal `text` starts with (as in `ValueError('...')`)."""
    quote, j = text[:1], 1
    while j < min(len(text), 100_000):
        if text[j] == "\\":
            j += 2
        elif text[j] == quote:
            try:
                with SYNTAX_TREES:  # the web's lookups run in threads
                    value = ast.literal_eval(text[: j + 1])
            except (ValueError, SyntaxError):
                return None
            return value if isinstance(value, str) else None
        else:
            j += 1
    return None


def _clean(exception: str | None, message: str) -> tuple[str, bool, bool]:
    """Tidy a message: trailing blanks, `Did you mean` suffixes, ellipses, quotes around it
    all. Also whether those quotes were a value's as `repr()` prints it (on one line)."""
    message = "\n".join(x.rstrip() for x in message.strip().split("\n"))
    message = _DID_YOU_MEAN.sub("", message) if "Did you" in message else message
    truncated = False
    for mark in _TRUNC:
        if message.endswith(mark):
            message, truncated = message[: -len(mark)].rstrip(" .…"), True
            break
    pairs = {"'": "'", '"': '"', "`": "`", "“": "”", "‘": "’"}
    quoted = False
    if (
        len(message) >= 2 and pairs.get(message[0]) == message[-1]
        and message[0] not in message[1:-1] and not (exception or "").endswith("KeyError")
    ):  # fmt: skip
        quoted = message[0] in "'\"" and "\n" not in message
        message = message[1:-1].strip()
    # A message cut short mid-value leaves a bracket open.
    truncated = truncated or any(message.count(a) > message.count(b) for a, b in ("()", "[]", "{}"))
    return message, truncated, quoted
