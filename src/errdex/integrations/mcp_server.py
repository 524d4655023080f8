"""The MCP server for coding agents: `errdex mcp` speaks the Model Context Protocol over stdio
with the official SDK.

Tools: `lookup` (pasted text → ranked matches with the values their placeholders held),
`show` (an error id → its page), `list` (the sites of a project, version or file), `diff`
(two versions of a project) and `index` (a source; a release from the package index is
downloaded as an archive, never built or run). Each answers with the JSON text the same
command prints with `--json`; an errdex error comes back as a tool error whose text is the
one-line message the command would print.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

import errdex
from errdex.errors import ErrdexError
from errdex.render.json import encode_for_terminal as json_text
from errdex.render.safe_text import safe_line
from errdex.store import Store, open_store

INSTRUCTIONS = """errdex indexes every error a Python codebase can raise. Give `lookup` the
error text exactly as you see it (a message, a whole traceback, log lines): it answers with
the raising site in the user's version, the values of the message's placeholders, and an
error id; `show` that id for what it means, when it happens and how to fix it. `index` a
package (NAME==VERSION, a git address URL@REV, a folder) before looking up its errors if
lookup finds nothing; installed packages a traceback names are indexed on their own."""


@contextmanager
def _store(db: str | None) -> Iterator[Store]:
    """The store for one tool call; errdex's errors become the tool's error, in the one
    line the command would print (anything else is a crash the SDK reports as such)."""
    try:
        store = open_store(db)
        try:
            yield store
        finally:
            store.close()
    except ErrdexError as error:
        raise ToolError(safe_line(str(error))) from error


def build_server(db: str | None = None) -> MCPServer:
    """The server, answering from the database `db` (default: `$ERRDEX_DB`, else the user's)."""
    server = MCPServer("errdex", instructions=INSTRUCTIONS)

    @server.tool(structured_output=False)
    def lookup(
        text: str, project: str | None = None, version: str | None = None, limit: int = 5
    ) -> str:
        """Find where an error comes from: `text` is what was pasted or printed (a message,
        a traceback, log lines). Ranked matches, best first, with placeholder values."""
        with _store(db) as store:  # the whole of a package indexed first: one pass
            found = errdex.answer(
                text, db=store, project=project, version=version, limit=limit, partial_first=False
            )
            return json_text(found.record())

    @server.tool(structured_output=False)
    def show(id: str, version: str | None = None) -> str:
        """The page of one error by its 16-hex id: message, source, conditions, what it
        means, when it happens, solutions, example fix, related errors, versions."""
        with _store(db) as store:
            return json_text(errdex.show(id, db=store, version=version))

    @server.tool(name="list", structured_output=False)
    def list_sites(
        project: str | None = None,
        version: str | None = None,
        file: str | None = None,
        limit: int = 200,
    ) -> str:
        """The indexed error sites of a project (and version, and file inside it)."""
        with _store(db) as store:
            sites = errdex.list_sites(
                db=store, project=project, version=version, file=file, limit=limit
            )
        return json_text(sites)

    @server.tool(structured_output=False)
    def diff(project: str, old: str, new: str) -> str:
        """The errors two indexed versions of a project added, removed, reworded and moved."""
        with _store(db) as store:
            return json_text(errdex.diff(project, old, new, db=store))

    @server.tool(structured_output=False)
    def index(source: str) -> str:
        """Index a source: NAME==VERSION from the package index (downloaded as an archive,
        never built or run), a git repository's address URL@REV, a folder, PATH@REV, a wheel
        or sdist, or installed:NAME."""
        with _store(db) as store:  # a bad source fails inside: a tool error
            return json_text(errdex.index(source, db=store))

    return server


def run(db: str | None = None) -> None:
    """Serve over stdio until the client hangs up."""
    build_server(db).run("stdio")
