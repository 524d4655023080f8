"""The ASGI app: routes for pages and the API, middleware, one error handler, a store pool
and a response cache.

`create_app(db)` builds it; `serve(...)` runs it under uvicorn (what `errdex serve` calls).
"""

from __future__ import annotations

import copy
import errno
import logging
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from errdex.errors import InputError
from errdex.store import open_store
from errdex.web import api, pages
from errdex.web.cache import (
    ENV_CACHE_MB,
    GZIP_LEVEL,
    GZIP_MINIMUM,
    ResponseCache,
    cache_limit,
)
from errdex.web.collector import serving_collector
from errdex.web.failures import HANDLERS, CatchUnexpected
from errdex.web.lookups import LookupGate
from errdex.web.middleware import RequestLog, SecurityHeaders
from errdex.web.pool import StorePool

log = logging.getLogger("errdex.web")

STATIC = Path(__file__).parent / "static"
ENV_DB = "ERRDEX_DB"
# A pasted traceback arrives in the query string of a GET (the paste box's form): allow a
# request head of 1 MiB. h11 takes that limit; httptools stops near 80 KB whatever is set.
MAX_REQUEST_HEAD = 1 << 20


def create_app(
    store_url: str | None = None,
    *,
    pool_size: int = 4,
    cache_mb: int | None = None,
    lookup_gate: LookupGate | None = None,
) -> Starlette:
    """The web app on the database at `store_url` (default: `ERRDEX_DB`, else the user's),
    with a response cache of `cache_mb` MiB (default: `ERRDEX_WEB_CACHE_MB`, else 64; 0: off).
    Lookups run `lookup_gate`'s way (default: half the pool's stores at a time, 8 queued,
    30 s each).

    The database is opened (and migrated) here, so a bad path fails before serving.
    """
    cache = ResponseCache(cache_limit(cache_mb))
    pool = StorePool(store_url, size=pool_size)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        log.info("serving %s", pool.location)
        try:
            with serving_collector():
                yield
        finally:
            pool.close()

    app = Starlette(
        routes=[
            *pages.routes(),
            *api.routes(),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[
            Middleware(RequestLog),
            Middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL),
            Middleware(SecurityHeaders),
            Middleware(CatchUnexpected),
        ],
        exception_handlers=HANDLERS,
        lifespan=lifespan,
    )
    app.state.pool = pool
    app.state.responses = cache
    # Lookups never take every store: the rest answer cheap reads while they run.
    app.state.lookups = lookup_gate or LookupGate(running=pool_size // 2)
    return app


def app_from_environment() -> Starlette:
    """The app factory uvicorn's workers call: the database comes from `ERRDEX_DB`, the
    cache's size from `ERRDEX_WEB_CACHE_MB`."""
    return create_app(os.environ.get(ENV_DB) or None)


def log_config() -> dict[str, object]:
    """uvicorn's logging, plus errdex's request log in the same format."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    # A request's path and headers reach the log: its lines are made inert (log_format.py).
    config["formatters"]["default"]["()"] = "errdex.web.log_format.InertFormatter"
    config["formatters"]["access"]["()"] = "errdex.web.log_format.InertAccessFormatter"
    config["loggers"]["errdex.web"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config


def check_address(host: str, port: int) -> None:
    """`InputError` unless a socket can listen at `host`:`port`, bound as uvicorn binds it
    (an address with a `:` is IPv6; the address reusable, so a port in TIME_WAIT is free)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    where = f"[{host}]:{port}" if family == socket.AF_INET6 else f"{host}:{port}"
    try:
        with socket.socket(family=family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:  # a name that does not resolve, a port in use, no permission
        reason = error.strerror or str(error)
        if error.errno == errno.EADDRINUSE:
            reason = "the port is in use (another server?)"
        raise InputError(f"cannot listen on {where}: {reason}") from error


def serve(
    db: str | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    cache_mb: int | None = None,
) -> None:
    """Serve the catalog until interrupted; each worker process opens its own stores and
    keeps its own response cache of `cache_mb` MiB."""
    import uvicorn

    from errdex.web import protocol

    # Open and migrate once, in this process: a bad database or setting fails early, and
    # so does an address that cannot be listened on (else uvicorn logs it over 7 lines).
    open_store(db, create=False).close()  # serving a new, empty database helps nobody
    create_app(db, cache_mb=cache_mb).state.pool.close()
    check_address(host, port)
    if db:
        os.environ[ENV_DB] = db
    if cache_mb is not None:
        os.environ[ENV_CACHE_MB] = str(cache_mb)
    uvicorn.run(
        "errdex.web.app:app_from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=False,  # errdex.web logs each request
        log_config=log_config(),
        http=protocol.IMPORT_NAME,  # h11, with Nagle off in every worker
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD,
        server_header=False,
    )
