"""`errdex serve` and `errdex mcp`: the catalog over HTTP, and to coding agents over MCP."""

from __future__ import annotations

import click

from errdex.cli.output import db_option, fail, handle_errors


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Server processes."
)
@click.option(
    "--cache-mb",
    type=click.IntRange(0),
    default=None,
    help="Response cache of each worker, in MiB (0: off)  [default: $ERRDEX_WEB_CACHE_MB, else 64]",
)
@db_option
@handle_errors
def serve(host: str, port: int, workers: int, cache_mb: int | None, db: str | None) -> None:
    """Serve the catalog over HTTP: pages for people, JSON under /api/ for programs."""
    from errdex.web import serve as serve_web

    serve_web(db, host=host, port=port, workers=workers, cache_mb=cache_mb)


@click.command()
@db_option
def mcp(db: str | None) -> None:
    """Serve errdex to coding agents over the Model Context Protocol (stdio): the tools
    lookup, show, list, diff and index, each answering with the JSON of its command."""
    try:
        from errdex.integrations.mcp_server import run as run_mcp
    except ImportError:
        fail("the MCP server needs the mcp package: pip install 'errdex[mcp]'", 2)
    else:
        run_mcp(db)
