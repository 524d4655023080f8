"""Who takes a way out: the user of a command-line program, or the author who wrote it.

A command-line framework's usage error (click's `UsageError` and its subclasses: a missing
parameter, an option without its value; argparse's `ArgumentError`, the
`ArgumentTypeError` a flag's `type=` function raises on the value typed, and
`parser.error(...)`) is raised by what someone typed, and the framework prints it under
the usage line. Most people who see it run the program: for them the way
out is the command line, which the message describes. The ways out through the code (an
argument of the framework's classes, `required=False`) are the program's author's; they are
kept, said to be theirs.
"""

from __future__ import annotations

import re

import msgspec

from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.facts import SiteKind

# The base every usage error of a command-line framework derives from (click, and typer on
# top of it; `docopt`'s `DocoptExit` is printed the same way but is no subclass of one).
_USAGE_ERRORS = frozenset({"UsageError"})
# argparse's, by their full names: another package's `ArgumentError` (SQLAlchemy's) is a
# Python call's bad argument, no command line's.
_ARGPARSE_ERRORS = frozenset({"argparse.ArgumentError", "argparse.ArgumentTypeError"})
_PLACEHOLDER_ONLY = re.compile(r"^\s*(\{[^{}]*\}\s*)+$")
_FRAMEWORK_PREFIX = re.compile(r"^Error:\s*")


def is_usage_error(facts: Facts) -> bool:
    """Whether the site raises a framework's usage error: what the command line caused."""
    site = facts.stored.site
    if site.printer == "argparse":
        return True  # `parser.error(...)`: printed under the usage line, exit status 2
    info = facts.stored.exception
    if info is None or site.kind == SiteKind.RERAISE:
        return False  # a bare `raise` passes on what another site raised
    names = [info.qualname, *info.bases]
    return any(n.rpartition(".")[2] in _USAGE_ERRORS or n in _ARGPARSE_ERRORS for n in names)


def command_line_solution(facts: Facts) -> Solution | None:
    """The way out for whoever ran the program: their command line, as the message says."""
    if not is_usage_error(facts):
        return None
    said = _shown_text(facts)
    quoted = f" (“{said}”)" if said else ""
    return Solution(
        text=(
            f"If you ran a command and it printed this: change your command line as the "
            f"message says{quoted}; the command's `--help` lists the options and arguments "
            f"it takes and how many values each wants."
        ),
        kind="input",
    )


def for_author(solution: Solution) -> Solution:
    """An input solution said to be for the program's author (the code's call, not the
    command line)."""
    text = solution.text[:1].lower() + solution.text[1:]
    return msgspec.structs.replace(solution, text=f"If you wrote the command: {text}")


def _shown_text(facts: Facts) -> str | None:
    """The message as the user reads it: the raise's own text unless it is only a value
    (`{option_name}`, the first argument of `BadOptionUsage`), then the text the class
    composes."""
    message = facts.stored.site.message
    candidates = [message.text] if message is not None else []
    candidates += [form.text.text for form in facts.stored.shown]
    for text in candidates:
        text = _FRAMEWORK_PREFIX.sub("", text.strip())
        if text and not _PLACEHOLDER_ONLY.match(text):
            return text
    return None
