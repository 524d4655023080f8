"""One shape for every failure: `{"error": message, "status": code}`.

errdex's own exceptions carry their meaning (not found, bad input, store trouble); this
module maps them to an HTTP status. Under `/api/` the body is that JSON; pages draw the
same two fields as HTML. Unexpected exceptions (errdex's bugs) are logged in one line and
answered with a plain 500 that tells nothing of the server's insides.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errdex.bugs import bug_line, debugging
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
    _log_bug(request.method, request.url.path, exc)
    return failure_response(request, _INTERNAL, 500)


_INTERNAL = "internal error; the server log has the details"


def _log_bug(method: str, path: str, exc: Exception) -> None:
    """One line for an error of errdex's own; its traceback too with `ERRDEX_DEBUG=1`."""
    log.error("%s", bug_line(exc, f"{method} {path}"), exc_info=exc if debugging() else None)


class CatchUnexpected:
    """Answers an exception no handler took (a bug of errdex) with the 500 failure, and
    logs it once. Starlette's own last resort answers so too, but raises it on after, and
    the server logs it a second time, traceback and all (uvicorn's "Exception in ASGI
    application"); inside the other middleware, the answer gets their headers too."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            if started:  # too late to answer: the server ends the response
                raise
            request = Request(scope, receive)
            _log_bug(request.method, request.url.path, exc)
            await failure_response(request, _INTERNAL, 500)(scope, receive, send)


HANDLERS: dict[Any, Any] = {
    ErrdexError: on_errdex_error,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}
