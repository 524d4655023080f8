"""ASGI middleware: one log line per request, and headers every response carries."""

from __future__ import annotations

import logging
import time

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errdex.render.safe_text import safe_line

log = logging.getLogger("errdex.web")

# No page runs a script: nothing injected into one could run either.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class RequestLog:
    """Logs `METHOD path status bytes ms` per request. A query string is logged by its size
    only: a pasted traceback may hold what its owner would not want in a server log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        size = 0

        async def sending(message: Message) -> None:
            nonlocal status, size
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            query = scope.get("query_string", b"")
            path = scope.get("path", "") + (f"?[{len(query)} bytes]" if query else "")
            client = scope.get("client") or ("-", 0)
            log.info(
                "%s %s %s %d %dB %.1fms",
                client[0],
                safe_line(scope.get("method", "-")),
                safe_line(path),  # decoded: a %0a or %1b in it must not reach the log raw
                status,
                size,
                (time.perf_counter() - started) * 1000,
            )


class SecurityHeaders:
    """Adds `SECURITY_HEADERS` to every response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, sending)
