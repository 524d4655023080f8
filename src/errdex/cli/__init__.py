"""The `errdex` command: each subcommand calls one library function and prints its result.

The library raises `ErrdexError`s; the commands turn them into one line on stderr and an
exit code (1: nothing found, 2: bad input or a failed run). One module a command group;
`output` holds what they share.
"""

from __future__ import annotations

import importlib

import click

__all__ = ["main"]

# Each command's module, imported only when that command runs (or help lists them all):
# `errdex lookup` need not import the server, the exporter or the indexer's progress bars.
_COMMANDS = {
    "diff": ("errdex.cli.diff", "diff"),
    "explain": ("errdex.cli.explain", "explain"),
    "export": ("errdex.cli.export", "export"),
    "hook": ("errdex.cli.hook", "hook"),
    "index": ("errdex.cli.index", "index"),
    "list": ("errdex.cli.catalog", "list_"),
    "lookup": ("errdex.cli.lookup", "lookup"),
    "mcp": ("errdex.cli.serve", "mcp"),
    "run": ("errdex.cli.hook", "run"),
    "serve": ("errdex.cli.serve", "serve"),
    "show": ("errdex.cli.catalog", "show"),
}


class _Commands(click.Group):
    """A group whose commands are imported by name when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = _COMMANDS.get(cmd_name)
        if where is None:
            return None
        command = getattr(importlib.import_module(where[0]), where[1])
        assert isinstance(command, click.Command)
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="errdex")
def main() -> None:
    """errdex: an index of every error a Python codebase can raise."""
