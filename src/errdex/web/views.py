"""What each page shows, as plain data: the JSON twin returns it and the HTML draws it.

Error pages are `errdex.explain`'s `Page`, projects and files `errdex.catalog`'s records,
searches `errdex.match`'s `LookupAnswer`: each a record, encoded for `/api/` and drawn
as `errdex.render.json.plain(record)` by the HTML.
"""

from __future__ import annotations

import re

from errdex.catalog import file_view as file_view
from errdex.catalog import project_view as project_view
from errdex.catalog import projects_view as projects_view
from errdex.errors import InputError, NotFoundError
from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.match import LookupAnswer, LookupResult, lookup_text
from errdex.store.base import Store

MAX_QUERY = 1_000_000  # the end of a paste holds the error: keep its last megabyte


def clean_query(text: str | None) -> str:
    """The pasted text to look up: its last megabyte, without NULs; empty is an error."""
    text = (text or "")[-MAX_QUERY:].replace("\x00", "")
    if not text.strip():
        raise InputError("give the error to look up: a message, a traceback or a log line")
    return text


def search_view(
    store: Store,
    text: str,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
) -> tuple[LookupAnswer, LookupResult]:
    """`/api/search`: the ranked matches of a paste (the nearest templates when none)."""
    result = lookup_text(store, text, project=project, version=version, limit=limit)
    return result.answer(), result


_ERROR_ID = re.compile(r"[0-9a-f]{16}")


def error_id_of(address: str) -> str:
    """The error id an address names, in lower case; NotFoundError when it names none."""
    error_id = address.strip().lower()
    if not _ERROR_ID.fullmatch(error_id):
        raise NotFoundError(f"no error with id {error_id[:40]!r}: an id is 16 hex digits")
    return error_id


def error_page(store: Store, error_id: str, version: str | None = None) -> Page:
    """`/api/errors/{id}`: the page of an error (at `version`, else its newest)."""
    return build_page(store, error_id_of(error_id), version)
