"""One shape for every failure: `{"error": message, "status": code}`.

errdex's own exceptions carry their meaning (not found, bad input, store trouble); this
module maps them to an HTTP status. Under `/api/` the body is that JSON; pages draw the
same two fields as HTML. Unexpected exceptions are logged and answered with a plain 500
that tells nothing of the server's insides.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from errdex.errors import ErrdexError, InputError, NotFoundError, StoreError
from errdex.render.records import Failure
from errdex.web.responses import JSONResponse
from errdex.web.templating import render

log = logging.getLogger("errdex.web")

_STATUS: list[tuple[type[ErrdexError], int]] = [
    (NotFoundError, 404),
    (InputError, 400),
    (StoreError, 503),
]


def status_of(error: ErrdexError) -> int:
    for kind, status in _STATUS:
        if isinstance(error, kind):
            return status
    return 400


def error_body(message: str, status: int) -> Failure:
    return Failure(error=message, status=status)


def failure_response(request: Request, message: str, status: int) -> Response:
    body = error_body(message, status)
    if request.url.path.startswith(request.scope.get("root_path", "") + "/api/"):
        return JSONResponse(body, status_code=status)
    return HTMLResponse(render(request, "failure.html", failure=body), status_code=status)


async def on_errdex_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ErrdexError)
    status = status_of(exc)
    if status >= 500:
        log.error("%s %s: %s", request.method, request.url.path, exc)
    return failure_response(request, str(exc), status)


async def on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    response = failure_response(request, exc.detail, exc.status_code)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def on_unexpected(request: Request, exc: Exception) -> Response:
    log.exception("%s %s failed", request.method, request.url.path)
    return failure_response(request, "internal error; the server log has the details", 500)


HANDLERS: dict[Any, Any] = {
    ErrdexError: on_errdex_error,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}
