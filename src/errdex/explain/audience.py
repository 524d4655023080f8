"""Who takes a way out: the user of a command-line program, or the author who wrote it.

A command-line framework's usage error (click's `UsageError` and its subclasses: a missing
parameter, an option without its value; argparse's `ArgumentError`, the
`ArgumentTypeError` a flag's `type=` function raises on the value typed, and
`parser.error(...)`) is raised by what someone typed, and the framework prints it under
the usage line. Most people who see it run the program: for them the way
out is the command line, which the message describes. The ways out through the code (an
argument of the framework's classes, `required=False`) are the program's author's; they are
kept, said to be theirs. A usage error raised in another package's option callback
(`raise click.BadParameter("Not valid JSON")` in the function `callback=` names) is the
same: the way out is that option's value on the command line, never an argument of the
callback, which only the framework calls. So is a usage error a handler catches by its
class and re-raises as it is (click's parser: `except NoSuchOption:` ... `raise` when
unknown options are not ignored). A usage error raised where only a `TypeError` was
caught (click's "Value must be an iterable.") is no command line's: typed text is never of
the wrong type, so the way out is the value the author's code gives.
"""

from __future__ import annotations

import ast
import re

import msgspec

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.facts import ConditionKind, SiteKind

# The base every usage error of a command-line framework derives from (click, and typer on
# top of it; `docopt`'s `DocoptExit` is printed the same way but is no subclass of one).
_USAGE_ERRORS = frozenset({"UsageError"})
# click's subclasses of it, by name, for a package that raises them without indexing click
# (its `exceptions` module is fixed: these are all the usage errors it defines); typer
# re-exports them.
_CLICK_USAGE = frozenset(
    {"UsageError", "BadParameter", "MissingParameter", "NoSuchOption", "BadOptionUsage"}
    | {"BadArgumentUsage"}
)
_CLICK_MODULES = ("click.", "typer.")
# argparse's, by their full names: another package's `ArgumentError` (SQLAlchemy's) is a
# Python call's bad argument, no command line's.
_ARGPARSE_ERRORS = frozenset({"argparse.ArgumentError", "argparse.ArgumentTypeError"})
_PLACEHOLDER_ONLY = re.compile(r"^\s*(\{[^{}]*\}\s*)+$")
_FRAMEWORK_PREFIX = re.compile(r"^Error:\s*")
_ONLY_TYPE_ERROR = re.compile(r"except\s+(builtins\.)?TypeError(\s+as\s+\w+)?:?")
_CALL_OF_NAME = re.compile(r"[\w.]+\(\w+\)")  # `iter(value)`: the value, as it is


def is_usage_error(facts: Facts) -> bool:
    """Whether the site raises a framework's usage error: what the command line caused."""
    site = facts.stored.site
    if site.printer == "argparse":
        return True  # `parser.error(...)`: printed under the usage line, exit status 2
    info = facts.stored.exception
    if info is None:
        return False
    if site.kind == SiteKind.RERAISE and not _caught_by_name(facts, info.name):
        return False  # a bare `raise` of whatever a broad handler caught
    names = [info.qualname, *info.bases]
    if any(n.startswith(_CLICK_MODULES) and n.rpartition(".")[2] in _CLICK_USAGE for n in names):
        return True
    return any(n.rpartition(".")[2] in _USAGE_ERRORS or n in _ARGPARSE_ERRORS for n in names)


def _caught_by_name(facts: Facts, name: str) -> bool:
    """Whether the handler the re-raise sits in names the class it passes on (`except
    NoSuchOption:` ... `raise` in click's parser: the usage error `_match_long_opt`
    raised on an unknown option, passed on as it is)."""
    return any(
        c.kind == ConditionKind.EXCEPT and re.search(rf"\b{re.escape(name)}\b", c.text)
        for c in facts.conditions
    )


def callback_parameter(facts: Facts) -> tuple[str, bool] | None:
    """(the option or argument, whether it is required) whose `callback=` is the site's
    function, read from the decorators of the site's file: `@click.option("--json", "-j",
    callback=validate_json)` → ("--json", False)."""
    tree = facts.source_tree()
    function = facts.stored.site.function
    if tree is None or "." in function:
        return None
    for node in walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Attribute, ast.Name)):
            continue
        kind = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        if kind not in ("option", "argument"):
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        callback = keywords.get("callback")
        if not (isinstance(callback, ast.Name) and callback.id == function):
            continue
        names = [
            a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
        if not names:
            return None
        flags = [n for n in names if n.startswith("-")]
        # the long flag names it best; an argument is shown by its name in capitals
        name = max(flags, key=len) if flags else names[0].upper()
        required = keywords.get("required")
        is_required = isinstance(required, ast.Constant) and required.value is True
        return name, is_required or (kind == "argument" and "default" not in keywords)
    return None


def command_line_solution(facts: Facts) -> Solution | None:
    """The way out for whoever ran the program: their command line, as the message says."""
    if not is_usage_error(facts):
        return None
    said = _shown_text(facts)
    quoted = f" (“{said}”)" if said else ""
    if _type_error_caught(facts):
        return Solution(
            text=(
                f"Fix the value set in code{quoted}: a parameter's `default=`, or its entry "
                "in a `default_map`. No command line causes this: the clause catches only "
                "`TypeError`, and the parser builds every value from what is typed, as text."
            ),
            kind="input",
        )
    parameter = callback_parameter(facts)
    if parameter is not None:
        name, required = parameter
        left_out = "" if required else f", or leave `{name}` out"
        return Solution(
            text=(
                f"Give `{name}` a value it accepts on your command line{quoted}{left_out}: "
                f"the program checks that value in `{facts.stored.site.function}`, the "
                f"callback of `{name}`."
            ),
            kind="input",
        )
    return Solution(
        text=(
            f"If you ran a command and it printed this: change your command line as the "
            f"message says{quoted}; the command's `--help` lists the options and arguments "
            f"it takes and how many values each wants."
        ),
        kind="input",
    )


def _type_error_caught(facts: Facts) -> bool:
    """Whether the site sits in a clause catching `TypeError` alone around one call of the
    value itself (`_check_iter(value)`): a value of the wrong type, which typed text never
    is. A `try` that builds something from the text (`LoRAModulePath(**json.loads(item))`)
    can fail so on what was typed, and argparse's handlers are the command line's."""
    if facts.stored.site.printer == "argparse":
        return False
    for condition in facts.conditions:
        if condition.kind != ConditionKind.EXCEPT:
            continue
        if not _ONLY_TYPE_ERROR.fullmatch(condition.text.strip()):
            continue
        tried = facts.read.tries.get(condition.line)
        if tried is not None and len(tried.calls) == 1 and _CALL_OF_NAME.fullmatch(tried.calls[0]):
            return True
    return False


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
