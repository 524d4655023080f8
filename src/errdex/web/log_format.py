"""The server log's format: uvicorn's, with every message made inert.

A request chooses its path (decoded: `%1b` is ESC, `%0a` a newline), its method and its
headers, and some of that reaches the log. Printed raw, a path could forge a log line or
drive the terminal of whoever tails the log; `safe_text` shows it escaped instead.
"""

from __future__ import annotations

import copy
import logging
from types import TracebackType

from uvicorn.logging import AccessFormatter, DefaultFormatter

from errdex.render.safe_text import safe_line, safe_text

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


def inert_record(record: logging.LogRecord) -> logging.LogRecord:
    """A copy of `record` whose message and arguments are made inert, one line each.

    The arguments are cleaned, not the formatted line: uvicorn colours its own parts of a
    line with escape codes, which must stay. Numbers are left as numbers (for `%d`).
    """
    inert = copy.copy(record)
    if isinstance(inert.msg, str):
        inert.msg = safe_line(inert.msg)
    if isinstance(inert.args, tuple):
        inert.args = tuple(_inert_arg(a) for a in inert.args)
    elif isinstance(inert.args, dict):
        inert.args = {k: _inert_arg(v) for k, v in inert.args.items()}
    inert.message = inert.getMessage()
    return inert


def _inert_arg(value: object) -> object:
    if isinstance(value, int | float) or value is None:
        return value
    return safe_line(value if isinstance(value, str) else str(value))


class InertFormatter(DefaultFormatter):
    """uvicorn's default format: the message on one line, a traceback's lines inert."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return super().formatMessage(inert_record(record))

    def formatException(self, ei: ExcInfo) -> str:
        return safe_text(super().formatException(ei))


class InertAccessFormatter(AccessFormatter):
    """uvicorn's access-log format (off in `errdex serve`: errdex logs each request itself),
    made inert all the same for whoever turns it on."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return super().formatMessage(inert_record(record))
