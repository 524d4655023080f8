"""Where in a file's bytes a pasted message's pieces, a class's raises and its definition
sit, found by scanning bytes as grep does (the first answer reads files it does not parse)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from itertools import islice

from errdex.lazy_re import lazy_compile
from errdex.match.import_graph import outline

_RAISE_OR_WARN = lazy_compile(rb"raise[ \t]|warn\w*\(")  # where `raise_lines` may find one
_PAREN = lazy_compile(rb"[()]")
_MOST_RAISES = 32  # raises of a class read per file
_NO_STATEMENT = frozenset(b" \t\n\r\f\v#)]}@")  # what no statement at column 0 begins with
_CLASS = lazy_compile(rb"class[ \t]+(\w+)[^:\n]*")
_ERRORISH = lazy_compile(rb"Error|Exception|Warning|Exit|Abort|Fail")


def lines_of(data: bytes, needles: Iterable[bytes]) -> list[int]:
    """The lines where the longest needle the file holds occurs: where the message is
    raised. (A shorter piece, a name such as `past_key_values`, may be anywhere in the file.)

    Every one of them: a subset cuts the definitions holding none, and a file raising the
    text again further down lost those raises to a cap of 16 (transformers 4.54.0's
    `generation/logits_process.py` raises `min_tokens_to_keep` has to be a positive integer
    at lines 510, 636 and 720, the text's longest piece held by 16 other raises before 720,
    whose class was cut)."""
    for needle in needles:
        lines: list[int] = []
        line, counted = 1, 0
        at = data.find(needle)
        while at >= 0:
            line += data.count(b"\n", counted, at)  # counted from the last one, not the start
            counted = at
            lines.append(line)
            at = data.find(needle, at + len(needle))
        if lines:
            return lines
    return []


def constant_uses(data: bytes, lines: Iterable[int], most: int = 16) -> list[int]:
    """Where (byte offsets) the file uses the module-level constants written on `lines` (a
    message kept in a constant and raised further down: `raise
    ValueError(_version_error.format(...))`), at most `most` for each."""
    shape = outline(data)
    uses: list[int] = []
    held = sorted(set(lines))
    for first, last, name in shape.lines:
        start = shape.line_starts[first - 1]
        at = bisect_left(held, first)  # the first of `lines` at or after the statement's
        if (
            at == len(held)
            or held[at] > last
            or shape.text.startswith(("def", "async", "class"), start)
        ):
            continue
        used = re.finditer(rb"(?<![\w.])" + re.escape(name.encode()) + rb"\b", data)
        found = (use.start() for use in used)
        outside = (at for at in found if not first <= data.count(b"\n", 0, at) + 1 <= last)
        uses += islice(outside, most)
    return uses


def defines(data: bytes, name: str) -> bool:
    """Whether the file's bytes define a class of this name (checked cheaply first)."""
    if b"class " + name.encode() not in data:
        return False
    definition = re.compile(rb"^[ \t]*class[ \t]+" + re.escape(name.encode()) + rb"\b", re.M)
    return definition.search(data) is not None


def raise_lines(data: bytes, name: str) -> list[int]:
    """The lines where the file's bytes raise the class `name` (or an alias it imports it
    as), or warn with it as the category, at most a few dozen."""
    written = name.encode()
    if written not in data:
        return []
    aliases = [written, *re.findall(rb"\b" + re.escape(written) + rb"[ \t]+as[ \t]+(\w+)", data)]
    either = rb"(?:[\w.]+\.)?\b(?:" + b"|".join(re.escape(alias) for alias in aliases) + rb")\b"
    # `warnings.warn(msg, Category)`: the arguments before it may hold one level of calls
    # (bounded: a file is hostile input).
    pattern = re.compile(
        rb"raise[ \t]+" + either + rb"|\bwarn\w*\((?:[^()]|\([^()]{0,200}\)){0,400}?" + either
    )
    # As `pattern.finditer` finds them, tried only where a raise or a warn call starts, and
    # a call only when its arguments hold the name: tried at every character, the lazy
    # reading of a warn call's arguments took most of the time of a search for raises.
    lines: list[int] = []
    end = 0
    for start in _RAISE_OR_WARN.finditer(data):
        at = start.start()
        if at < end or (
            data[at] == ord("w")
            and not any(a in data[start.end() : arguments_end(data, start.end())] for a in aliases)
        ):
            continue
        found = pattern.match(data, at)
        if found is not None:
            lines.append(data.count(b"\n", 0, at) + 1)
            end = found.end()
            if len(lines) == _MOST_RAISES:
                break
    return lines


def arguments_end(data: bytes, start: int) -> int:
    """Where the arguments of a call whose `(` ends before `start` must end for a warn
    call's pattern to read them: at its closing bracket, or at a bracket two levels in."""
    limit = min(len(data), start + 400 * 202)
    depth = 0
    for bracket in _PAREN.finditer(data, start, limit):
        if data[bracket.start()] == ord("("):
            depth += 1
            if depth > 1:
                return bracket.start()
        elif depth == 0:
            return bracket.start()
        else:
            depth -= 1
    return limit


def classes_holding(data: bytes, pieces: list[str]) -> set[str]:
    """The top-level classes whose bodies hold one of the pieces: exception classes that
    compose the text themselves (`__str__`, `__init__`, a message attribute)."""
    held = (data.find(piece.encode()) for piece in pieces)
    return classes_at(data, [at for at in held if at >= 0])


def classes_at(data: bytes, offsets: Iterable[int]) -> set[str]:
    """The exception classes (or mixins) whose top-level bodies hold these offsets."""
    found = set()
    for at in offsets:
        start = statement_before(data, at)
        owner = _CLASS.match(data, start) if start is not None else None
        # An exception class (or its mixin) composing its text, not a class whose method
        # raises with it.
        if owner is not None and _ERRORISH.search(owner.group(0)):
            found.add(owner.group(1).decode())
    return found


def statement_before(data: bytes, at: int) -> int | None:
    """Where the last top-level statement starting before `at` starts (a line beginning at
    column 0 with code), read back line by line from `at`: a pattern run from the file's
    start to each offset took most of a bare message's search in a large file."""
    line = data.rfind(b"\n", 0, max(at - 1, 0)) + 1 if at else -1
    while line >= 0:
        if line < at and data[line] not in _NO_STATEMENT:
            return line
        line = data.rfind(b"\n", 0, line - 1) + 1 if line else -1
    return None
