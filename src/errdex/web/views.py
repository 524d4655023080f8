"""What a request asks for, read from its address and query: the pasted text, the error id.

Each route turns these into one call of the library (`errdex.show`, `errdex.search`,
`errdex.list_projects`, `errdex.show_project`, `errdex.show_file`) on the pool's store; the
JSON twin encodes the record it returns, the HTML draws `errdex.render.json.plain(record)`.
"""

from __future__ import annotations

import re

from errdex.errors import InputError, NotFoundError

MAX_QUERY = 1_000_000  # the end of a paste holds the error: keep its last megabyte


def clean_query(text: str | None) -> str:
    """The pasted text to look up: its last megabyte, without NULs; empty is an error."""
    text = (text or "")[-MAX_QUERY:].replace("\x00", "")
    if not text.strip():
        raise InputError("give the error to look up: a message, a traceback or a log line")
    return text


_ERROR_ID = re.compile(r"[0-9a-f]{16}")


def error_id_of(address: str) -> str:
    """The error id an address names, in lower case; NotFoundError when it names none."""
    error_id = address.strip().lower()
    if not _ERROR_ID.fullmatch(error_id):
        raise NotFoundError(f"no error with id {error_id[:40]!r}: an id is 16 hex digits")
    return error_id
