"""The `errdex` command: each subcommand calls one library function and prints its result.

The library raises `ErrdexError`s; the commands turn them into one line on stderr and an
exit code (1: nothing found, 2: bad input or a failed run). One module a command group;
`output` holds what they share.
"""

from __future__ import annotations

import atexit
import gc
import importlib

import click

__all__ = ["main"]

# Each command's module, imported only when that command runs, and the first paragraph of
# its help, which `--help` lists without importing them all (the server's, the exporter's,
# the history's modules: most of its time). tests/cli checks each against its command.
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "diff": (
        "errdex.cli.diff",
        "diff",
        (
            "Compare the errors of two indexed versions of PROJECT: added, removed, reworded (old"
            " and new message side by side) and moved to another function or file."
        ),
    ),
    "explain": (
        "errdex.cli.explain",
        "explain",
        (
            "Let a model write the prose of one error's page (ID), or of every error of a project"
            " (--project), from the facts; answers citing code the index lacks are rejected."
        ),
    ),
    "export": (
        "errdex.cli.export",
        "export",
        (
            "Write PROJECT's catalog at VERSION (default: the newest) as static files: the pages "
            "and JSON twins `errdex serve` answers, at the same paths (PATH/index.html, "
            "PATH.json), with relative links, an index of every error and a sitemap, for any "
            "static host."
        ),
    ),
    "hook": (
        "errdex.cli.hook",
        "hook",
        (
            "Turn errdex's summary under uncaught tracebacks on or off for this whole Python "
            "environment (every program it runs), without changing any code."
        ),
    ),
    "index": (
        "errdex.cli.index",
        "index",
        (
            "Index SOURCE: a directory, PATH@REV of a git repository, URL@REV of a remote one "
            "(only that revision is fetched), a wheel or sdist, NAME==VERSION from the package "
            "index, or installed:NAME."
        ),
    ),
    "list": (
        "errdex.cli.catalog",
        "list_",
        ("List indexed error sites."),
    ),
    "lookup": (
        "errdex.cli.lookup",
        "lookup",
        (
            "Find where an error comes from: paste a message, a traceback or a log line (TEXT, or"
            " - to read standard input)."
        ),
    ),
    "mcp": (
        "errdex.cli.serve",
        "mcp",
        (
            "Serve errdex to coding agents over the Model Context Protocol (stdio): the tools "
            "lookup, show, list, diff and index, each answering with the JSON of its command."
        ),
    ),
    "run": (
        "errdex.cli.hook",
        "run",
        ("Run a Python SCRIPT; if it dies of an uncaught exception, show where that was raised."),
    ),
    "serve": (
        "errdex.cli.serve",
        "serve",
        ("Serve the catalog over HTTP: pages for people, JSON under /api/ for programs."),
    ),
    "show": (
        "errdex.cli.catalog",
        "show",
        (
            "Show one error's page by its 16-hex id: what it means, the code, when it happens, "
            "how to fix it."
        ),
    ),
}


class _Commands(click.Group):
    """A group whose commands are imported by name when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries, as click lists them, from `_COMMANDS`."""
        limit = formatter.width - 6 - max(len(name) for name in _COMMANDS)
        # Shortened as click shortens a command's own help (a stand-in holding only it).
        rows = [
            (name, click.Command(name, help=summary).get_short_help_str(limit))
            for name, (_module, _attribute, summary) in sorted(_COMMANDS.items())
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = _COMMANDS.get(cmd_name)
        if where is None:
            return None
        command = getattr(_import_whole(where[0]), where[1])
        assert isinstance(command, click.Command)
        return command


def _import_whole(module: str) -> object:
    """A command's module, imported without the cyclic collector: importing makes only
    module-level objects, which live as long as the process, yet the collector walked them
    59 times over while `lookup`'s modules were imported (6% of that import's time). They
    are frozen after, as at exit (`_freeze_at_exit`), so that no later collection walks them
    either."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(module)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="errdex")
def main() -> None:
    """errdex: an index of every error a Python codebase can raise."""
    _freeze_at_exit()


_exit_hook: list[bool] = []


def _freeze_at_exit() -> None:
    """At exit, put every object out of the cyclic collector's reach (once a process).

    Python's finalization runs full collections while it tears the modules down: after an
    index, the linker's caches of parsed expressions (a few hundred thousand objects) are
    walked again each time, 0.6 s of CPU after vllm's index is written and printed (0.05 s
    frozen). The process's memory goes with it all the same; only an object caught in a
    reference cycle is not finalized, which Python does not promise at exit either.
    """
    if not _exit_hook:
        _exit_hook.append(True)
        atexit.register(gc.freeze)
