"""The `errdex` command: each subcommand calls one library function and prints its result.

The library raises `ErrdexError`s; the commands turn them into one line on stderr and an
exit code (1: nothing found, 2: bad input or a failed run). One module a command group;
`output` holds what they share.
"""

from __future__ import annotations

import click

from errdex.cli.catalog import list_, show
from errdex.cli.diff import diff
from errdex.cli.explain import explain
from errdex.cli.export import export
from errdex.cli.hook import hook, run
from errdex.cli.index import index
from errdex.cli.lookup import lookup
from errdex.cli.serve import mcp, serve

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="errdex")
def main() -> None:
    """errdex: an index of every error a Python codebase can raise."""


for _command in (diff, explain, export, hook, index, list_, lookup, mcp, run, serve, show):
    main.add_command(_command)
