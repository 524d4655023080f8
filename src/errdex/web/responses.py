"""Responses: JSON by msgspec, ETags that let a client revalidate instead of re-download,
and answers drawn from the catalog, kept in the response cache.

An answer drawn from the catalog alone is named by its route, its parameters and the
store's generation (`Store.generation`, one small query that every write changes). Its
ETag is a hash of that name and errdex's release, never of a time or a process: the same
in every worker, on every machine and after a restart. A client that holds it gets a 304
before anything is built; anyone else gets the answer kept under that tag in the response
cache, or built and kept. The tag is weak (`W/`): gzip gives the same content another
encoding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from errdex.errors import ConnectionLostError
from errdex.render.json import encode
from errdex.store.base import Store
from errdex.web.cache import CachedBody, ResponseCache
from errdex.web.pool import StorePool

try:
    _RELEASE = version("errdex")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    _RELEASE = "0"

# Pages are fresh for a minute, then revalidated with their ETag.
CACHE_CONTROL = "public, max-age=60, must-revalidate"


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return encode(content)


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


def stores(request: Request) -> StorePool:
    found = request.app.state.pool
    assert isinstance(found, StorePool)
    return found


def response_cache(request: Request) -> ResponseCache:
    found = request.app.state.responses
    assert isinstance(found, ResponseCache)
    return found


def catalog_answer(
    request: Request,
    route: str,
    params: Sequence[object],
    build: Callable[[Store], Response],
    *,
    revalidate: bool = True,
) -> Response:
    """The answer `build` draws from the catalog for `route` and its `params`: 304 when the
    client holds its tag, else from the response cache, else built (and kept when 200).

    Without `revalidate` (a POSTed search page) it carries no ETag and is never a 304, but
    comes from the cache all the same. A database connection lost on the way (the server
    restarted) is opened again and the answer tried once more: reads can be repeated.
    """
    try:
        return _catalog_answer(request, route, params, build, revalidate=revalidate)
    except ConnectionLostError:
        return _catalog_answer(request, route, params, build, revalidate=revalidate)


def _catalog_answer(
    request: Request,
    route: str,
    params: Sequence[object],
    build: Callable[[Store], Response],
    *,
    revalidate: bool,
) -> Response:
    with stores(request).store() as store:
        # The generation is read before anything is built: an answer built across a later
        # write is kept under the older tag, which no request names again; an answer is
        # never older than its tag.
        root = request.scope.get("root_path", "")
        tag = etag(route, root, *params, store.generation())
        headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL} if revalidate else {}
        if revalidate and _matches(request.headers.get("if-none-match"), tag):
            return Response(status_code=304, headers=headers)
        cache = response_cache(request)
        kept = cache.get(tag)
        changed = kept is None
        if kept is None:
            response = build(store)
            if response.status_code != 200 or not response.media_type:
                response.headers.update(headers)
                return response
            kept = CachedBody(bytes(response.body), response.media_type)
        if kept.packable and _takes_gzip(request):
            kept, changed = kept.packed(), True  # for this client and the next taking gzip
        if changed:
            cache.put(tag, kept)
    return kept_response(request, kept, headers)


def _takes_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "")


def kept_response(request: Request, kept: CachedBody, headers: dict[str, str]) -> Response:
    """A kept answer, gzipped already when the client takes gzip, as GZipMiddleware would
    have done it (it passes an encoded body on as it is); else plain, for the middleware."""
    if kept.gzipped is not None and _takes_gzip(request):
        headers = {**headers, "Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return Response(kept.gzipped, media_type=kept.media_type, headers=headers)
    return Response(kept.body, media_type=kept.media_type, headers=headers)
