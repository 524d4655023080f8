"""Undo what copying did to a paste: size and binary checks, line ends, colours, HTML
escapes, errors kept as JSON or logfmt, markdown fences, quotes and links, hard wrapping,
`docker compose` prefixes.
"""

from __future__ import annotations

import re
from collections import Counter

from errdex.errors import InputError
from errdex.lazy_re import lazy_compile
from errdex.match.paste_patterns import EXC_STRONG
from errdex.match.paste_structured import expand_structured

# A paste is untrusted: every pattern is anchored (`match`, once per line) or bounded, with no
# nested repeats that can backtrack over each other, so no line can make a pattern explode.
BRK = "\x00BRK"  # a block boundary (fence, HTML tag line); the guard refuses real NULs
_BINARY = lazy_compile(r"[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]")
_ANSI = lazy_compile(r"\x1b(?:\[[0-?]{0,40}[ -/]{0,10}[@-~]|\][^\x07\x1b]{0,999}\x07?|[@-Z\\-_])")
_ANSI_LOST = lazy_compile(r"\[\d{1,3}(?:;\d{1,3}){0,6}m")  # colour codes whose ESC a copy dropped
_ENTITY = lazy_compile(r"&(?:lt|gt|amp|quot|apos|nbsp|#\d{1,7}|#x[0-9a-fA-F]{1,6});")
_FENCE = lazy_compile(r"\s{0,3}(?:`{3,}|~{3,})[\w+.-]{0,30}\s*$")
_TAGLINE = lazy_compile(
    r"\s*(?:</?(?:details|summary|pre|code|br|p|div)\b[^<>]*>[^<>]*){1,6}$", re.I
)
_MDLINK = lazy_compile(r"\[([^\[\]\n]{1,999})\]\((?:https?://|/|#)[^()\s]{0,999}\)")  # Colab frames
_BACKTICKED = lazy_compile(r"\s*`([^`]+)`\s*$")
_QUOTED = lazy_compile(r"\s{0,3}> ?")
_COMPOSE = lazy_compile(r"([A-Za-z0-9][\w.-]{0,62}?)\s{0,40}\| ")
_NOWRAP = lazy_compile(r"[\s=_\-*#~+.]*$|[=_]{3}.*[=_]{3}\s*$|.*\[\s*\d+%\]\s*$|.*[│╭╮╰╯─]")
_RAWSTART = lazy_compile(
    r"\s*(?:Traceback \(|File \"|During handling|The above exception|\[rank|\(\w{0,40} ?pid="
    r"|\d{4}-\d\d-\d\d|\d\d-\d\d \d\d:|(?:ERROR|WARNING|INFO|DEBUG|CRITICAL)\b)"
)


def guard(text: str, max_bytes: int) -> str:
    if len(text) * 4 > max_bytes and len(data := text.encode("utf-8", "replace")) > max_bytes:
        # The error is at the end of a log: keep the tail, from its first whole line.
        text = data[-max_bytes:].decode("utf-8", "ignore")
        if 0 <= (cut := text.find("\n")) < len(text) - 1:
            text = text[cut + 1 :]
    if not text.strip():
        raise InputError("nothing to look up: the input is empty")
    if "\x00" in text:
        raise InputError("the input looks binary (it contains NUL bytes): paste the error text")
    if len(_BINARY.findall(sample := text[-65536:])) > 0.1 * len(sample):
        raise InputError("the input looks binary (mostly control characters): paste the error text")
    return text


_CURLY = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def prepare(text: str) -> list[str]:
    """Undo what copying did: line ends, colours, HTML escapes, markdown, quoting, wrapping."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4).translate(_CURLY)
    text = _ANSI.sub("", text) if "\x1b" in text else text
    text = _ANSI_LOST.sub("", text) if "[0m" in text or "[0;" in text else text
    if "&" in text and _ENTITY.search(text):
        import html  # here: its table of entities is a part of every lookup's start-up

        text = html.unescape(text)
    text = expand_structured(text)
    lines = text.replace("\u00a0", " ").replace("\u200b", "").replace("\ufeff", "").split("\n")
    for _ in range(3):  # markdown quoting, possibly nested
        body = [x for x in lines if x.strip()]
        if not body or sum(1 for x in body if _QUOTED.match(x)) < 0.6 * len(body):
            break
        lines = [x[m.end() :] if (m := _QUOTED.match(x)) else x for x in lines]
    for k, line in enumerate(lines):
        if _FENCE.match(line) or (line.lstrip().startswith("<") and _TAGLINE.match(line)):
            lines[k] = BRK
            continue
        line = _MDLINK.sub(r"\1", line) if "](" in line else line
        m = _BACKTICKED.match(line) if "`" in line else None
        lines[k] = m[1] if m else line.rstrip()
    return _strip_compose(_join_warning_places(_unwrap(lines)))


def _unwrap(lines: list[str]) -> list[str]:
    """Join lines a terminal hard-wrapped: lines exactly as long as the longest one, followed
    by a line that does not start like a line of its own."""
    width = max(map(len, lines), default=0)
    join = [
        len(x) == width >= 60
        and not _NOWRAP.match(x)
        and i + 1 < len(lines)
        and _cont(x, lines[i + 1])
        for i, x in enumerate(lines)
    ]
    full = sum(len(x) == width for x in lines)
    # Fixed-width logs have many longest lines and almost none continues: nothing was wrapped.
    if sum(join) < max(2, full // 2):
        return lines
    out: list[str] = []
    i = 0
    while i < len(lines):
        parts = [lines[i]]
        while join[i] and len(parts) < 100:
            i += 1
            parts.append(lines[i])
        out.append("".join(parts))
        i += 1
    return out


def _cont(line: str, nxt: str) -> bool:
    """Could `nxt` be the rest of `line`? Not when it has the prefix or indentation real lines
    have, or starts a line of its own."""
    return (
        bool(nxt.strip())
        and nxt != BRK
        and not (
            nxt.startswith("  ")
            or nxt[:6] == line[:6]
            or _RAWSTART.match(nxt)
            or EXC_STRONG.match(nxt)
        )
    )


# `path.py:12:` alone on a line, and `SomeWarning: message` on the next: a printed warning
# whose line a terminal or an issue's formatting broke after its place.
_PLACE_ALONE = lazy_compile(r"\s*(?:\w:)?[^\s:][^:]{0,500}\.pyx?:\d{1,7}:\s*$")
_WARNING_HEAD = lazy_compile(r"\s*(?:[A-Za-z_]\w{0,80}\.){0,10}[A-Z]\w{0,80}Warning: ")


def _join_warning_places(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and _WARNING_HEAD.match(line) and ".py:" in out[-1] and _PLACE_ALONE.match(out[-1]):
            out[-1] = f"{out[-1].rstrip()} {line.lstrip()}"
            continue
        out.append(line)
    return out


def _strip_compose(lines: list[str]) -> list[str]:
    """Remove a `docker compose` container prefix (`app-1  | `) from the lines that carry it."""
    counts = Counter(m[1] for x in lines if (m := _COMPOSE.match(x)))
    name, count = counts.most_common(1)[0] if counts else ("", 0)
    if count < 3 and not re.search(r"[-_]\d+$", name):
        return lines
    return [x[m.end() :] if (m := _COMPOSE.match(x)) and m[1] == name else x for x in lines]
