"""Responses: JSON by msgspec, and ETags that let a client revalidate instead of re-download.

An ETag is a hash of what a response is made from (an error id, the revisions that hold
it, the analysis that wrote its prose; or the catalog's versions), never of the time. It
is weak (`W/`) because gzip gives the same content another encoding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from errdex.store.base import Store

try:
    _RELEASE = version("errdex")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    _RELEASE = "0"

# Pages are fresh for a minute, then revalidated with their ETag.
CACHE_CONTROL = "public, max-age=60, must-revalidate"


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return msgspec.json.encode(content)


def etag(*parts: object) -> str:
    """A weak ETag for what these parts name; errdex's release is part of every tag."""
    digest = hashlib.blake2b(digest_size=12)
    digest.update(msgspec.json.encode([_RELEASE, *map(_plain, parts)]))
    return f'W/"{digest.hexdigest()}"'


def _plain(part: object) -> object:
    if isinstance(part, str | int | float | bool) or part is None:
        return part
    if isinstance(part, dict):
        return {str(k): _plain(v) for k, v in part.items()}
    if isinstance(part, Iterable):
        return [_plain(p) for p in part]
    return str(part)


def _matches(header: str | None, tag: str) -> bool:
    if not header:
        return False
    wanted = tag.removeprefix("W/")
    for candidate in header.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == wanted:
            return True
    return False


def conditional(request: Request, tag: str, build: Callable[[], Response]) -> Response:
    """`304 Not Modified` when the client holds `tag`, else the response `build` makes."""
    headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL}
    if _matches(request.headers.get("if-none-match"), tag):
        return Response(status_code=304, headers=headers)
    response = build()
    response.headers.update(headers)
    return response


def catalog_state(store: Store) -> list[tuple[str, str, str, str]]:
    """What every answer drawn from the whole catalog depends on: its versions as stored."""
    return [
        (record.project, record.label, record.revision, record.indexed_at)
        for project in store.projects()
        for record in store.versions(project.name)
    ]
