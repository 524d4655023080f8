"""Who takes a way out: the user of a command-line program, or the author who wrote it.

A command-line framework's usage error (click's `UsageError` and its subclasses: a missing
parameter, an option without its value) is raised by what someone typed, and the framework
prints it under the usage line. Most people who see it run the program: for them the way
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
_PLACEHOLDER_ONLY = re.compile(r"^\s*(\{[^{}]*\}\s*)+$")
_FRAMEWORK_PREFIX = re.compile(r"^Error:\s*")


def is_usage_error(facts: Facts) -> bool:
    """Whether the site raises a framework's usage error: what the command line caused."""
    info = facts.stored.exception
    if info is None or facts.stored.site.kind == SiteKind.RERAISE:
        return False  # a bare `raise` passes on what another site raised
    names = [info.qualname, *info.bases]
    return any(n.rpartition(".")[2] in _USAGE_ERRORS for n in names)


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
