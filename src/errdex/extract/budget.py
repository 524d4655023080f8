"""What one file may cost: limits checked on its text before it is parsed, because the
parser (C code, deaf to signals until it returns) is where a hostile file spends its time
and memory, and a wall-clock limit for the analysis that follows."""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from errdex.lazy_re import lazy_compile

# More syntax than this (estimated from its separators) and the file is not parsed: the
# parser's tree for a 3 MB list literal of 1.5 million items took 1.4 GB and over a minute.
# The largest real files seen (protobuf descriptors, numpy tests, idna tables) estimate to
# about 55,000.
MAX_SYNTAX_ESTIMATE = 250_000
_SEPARATORS = ",;+-*/|&%.=\n(["
# Python before 3.12 parses an f-string in time quadratic in its fields: one of 200,000
# fields took 74 s. Real f-strings have a few dozen at most.
MAX_FSTRING_FIELDS = 5_000
# Seconds the analysis of one file may take once parsed (the largest real files take ~1 s).
FILE_SECONDS = 30.0

# Where an f-string literal starts, and the end of a one-line string's body.
_FSTRING_START = lazy_compile("(?<![\\w'\"])(?:[rR]?[fF]|[fF][rR])('''|\"\"\"|'|\")")
_BODY = {q: re.compile(rf"(?:[^{q}\\\n]|\\.)*{q}", re.DOTALL) for q in ("'", '"')}


def _estimate(text: str) -> int:
    return sum(text.count(c) for c in _SEPARATORS)


def _fstrings(text: str) -> Iterator[str]:
    """The f-string literals of `text`, found in one pass (an unterminated one ends it)."""
    at = 0
    while (start := _FSTRING_START.search(text, at)) is not None:
        quote, body = start.group(1), start.end()
        if len(quote) == 3:
            end = body
            while (end := text.find(quote, end)) != -1 and text[end - 1] == "\\":
                end += 1
            if end == -1:
                return
            end += 3
        else:
            match = _BODY[quote].match(text, body)
            if match is None:
                at = body
                continue
            end = match.end()
        yield text[start.start() : end]
        at = end


def _most_fields(text: str) -> int:
    """The most `{` fields of any one f-string in `text` (`{{` is text, not a field)."""
    return max(
        (literal.count("{") - 2 * literal.count("{{") for literal in _fstrings(text)), default=0
    )


def over_budget(text: str) -> str | None:
    """Why a file's text is not parsed, or None when it is within every limit."""
    # Each separator is one character: a text no longer than the limit is within it, and is
    # not counted (fourteen passes over every file's text, 2% of extracting vllm).
    estimate = _estimate(text) if len(text) > MAX_SYNTAX_ESTIMATE else 0
    if estimate > MAX_SYNTAX_ESTIMATE:
        return (
            f"too much syntax to parse (about {estimate} nodes; the limit is {MAX_SYNTAX_ESTIMATE})"
        )
    if text.count("{") > MAX_FSTRING_FIELDS:  # only then is it worth looking for f-strings
        fields = _most_fields(text)
        if fields > MAX_FSTRING_FIELDS:
            return f"an f-string with {fields} fields (the limit is {MAX_FSTRING_FIELDS})"
    return None


class FileTimeout(BaseException):
    """A file's analysis ran past its wall-clock limit (a BaseException, so that no
    `except Exception` in the analysis takes it for a failure of its own)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds

    @property
    def reason(self) -> str:
        return f"took more than {self.seconds:g} s to analyse"


@contextmanager
def time_limit(seconds: float | None = None) -> Iterator[None]:
    """Raise `FileTimeout` in the block after `seconds`, where a timer can be had: in a
    process's main thread (an extraction worker's), with SIGALRM not taken by anyone else.
    Elsewhere (a thread of a web server or of a cluster's worker) the block runs unlimited;
    the limits of `over_budget` still hold there."""
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)
    )
    if not usable:
        yield
        return

    limit = FILE_SECONDS if seconds is None else seconds

    def expire(signum: int, frame: object) -> None:
        raise FileTimeout(limit)

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
