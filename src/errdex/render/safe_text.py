"""Strings bound for a terminal or a log line, made inert: control and bidi characters shown
escaped.

An indexed package chooses its messages, file names and code, and a web client its request
path; printed raw, an ESC sequence in them sets the window title, clears the screen, draws
an OSC 8 link or (OSC 52) writes the clipboard, a bare CR or newline forges a line, and a
bidi override reorders what the reader sees. Every such character is shown as an escape
(`\\x1b`, `\\u202e`) instead, so the reader sees that it is there and nothing acts on it.
"""

from __future__ import annotations

import re

from errdex.lazy_re import lazy_compile

# The characters a terminal or a reader's eyes act on: C0 controls, DEL, C1 controls (a
# terminal may read U+009B as CSI), bidi marks, embeddings, overrides and isolates, and the
# Unicode line and paragraph separators.
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ACTIVE = [*range(0x20), 0x7F, *range(0x80, 0xA0), *_BIDI, 0x2028, 0x2029]
_NAMED = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def _escape(code: int) -> str:
    if code in _NAMED:
        return _NAMED[code]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_ONE_LINE = {code: _escape(code) for code in _ACTIVE}
# Text of several lines (a code snippet, a traceback) keeps its newlines and tabs.
_LINES = {code: text for code, text in _ONE_LINE.items() if code not in (0x09, 0x0A)}
# Inside JSON, C0 controls are escaped by the encoder already; the rest becomes \uXXXX,
# which a JSON reader decodes to the same string.
_JSON = {code: f"\\u{code:04x}" for code in _ACTIVE if code >= 0x7F}
_ANY_ACTIVE = lazy_compile("[" + "".join(re.escape(chr(c)) for c in _ACTIVE) + "]")


def safe_text(text: str, *, one_line: bool = False) -> str:
    """`text` with every control and bidi character shown as an escape; with `one_line`,
    newlines and tabs too (a field of a one-line record: a log line, a `list` row)."""
    if not _ANY_ACTIVE.search(text):
        return text
    return text.translate(_ONE_LINE if one_line else _LINES)


def safe_line(text: str) -> str:
    """`safe_text` of a field that must stay on its line."""
    return safe_text(text, one_line=True)


def safe_json(encoded: str) -> str:
    """Encoded JSON with DEL, C1 and bidi characters as `\\uXXXX` escapes: the same value
    for a JSON reader, nothing a terminal acts on for a person reading it."""
    return encoded.translate(_JSON)
