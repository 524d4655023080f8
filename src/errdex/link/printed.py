"""What the frameworks a package uses print around an error's text.

A user pastes what the program printed, not what was raised: click's `Error: <message>`
(under a usage line) and `Invalid value for '-f': ...` from `BadParameter.format_message()`,
argparse's `prog: error: argument --x: <message>`, logging's default
`LEVEL:logger:message`, the warnings module's `file:line: Category: message`. These are
the frameworks' own rules, for classes and calls from outside the version (when the
version is the framework itself, `link.compose` reads its classes instead).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec

from errdex.facts import Arg, ErrorSite, FileFacts, MessageTemplate, Placeholder, SiteKind
from errdex.link.builtin_text import quoted
from errdex.linked_facts import IN_PANEL, ExceptionInfo, ShownText

# click's exceptions (and typer's re-exports of them) by name, with what
# `format_message()` makes of the message; `show()` prints `Error: ` before it.
_CLICK_PACKAGES = ("click.", "typer.")
_CLICK_SHOWN = frozenset(
    {
        "ClickException",
        "UsageError",
        "BadParameter",
        "MissingParameter",
        "NoSuchOption",
        "BadOptionUsage",
        "BadArgumentUsage",
        "FileError",
    }
)
# Python's logging levels as `basicConfig`'s default format prints them.
_LEVEL_NAMES = {
    "warning": "WARNING",
    "warn": "WARNING",
    "error": "ERROR",
    "exception": "ERROR",
    "critical": "CRITICAL",
    "fatal": "CRITICAL",
}


def printed_forms(
    site: ErrorSite, info: ExceptionInfo | None, message: MessageTemplate | None
) -> Iterator[tuple[MessageTemplate, str]]:
    """(text, how) of each form a framework prints for the site."""
    if message is None:
        return
    if site.kind is SiteKind.LOG and site.level:
        level = _LEVEL_NAMES.get(site.level.lower())
        if level is not None:
            logger = Placeholder("logger.name")
            yield MessageTemplate.of(f"{level}:", logger, ":") + message, "printed by logging"
        return
    if site.kind is SiteKind.EXIT and site.printer == "argparse":
        # `parser.error(msg)` prints the usage, then `prog: error: msg`.
        yield MessageTemplate.of(Placeholder("prog"), ": error: ") + message, "printed by argparse"
        return
    if site.kind is SiteKind.WARN:
        category = (info.name if info else site.exception) or "UserWarning"
        where = (Placeholder("filename"), ":", Placeholder("lineno"), f": {category}: ")
        yield MessageTemplate.of(*where) + message, "printed by warnings"
        return
    if info is None or info.defined_in is not None:
        return
    names = (info.qualname, *info.bases)
    if any(name.startswith(_CLICK_PACKAGES) for name in names) and info.name in _CLICK_SHOWN:
        yield from _click(info.name, site.args, message)
    elif info.qualname in ("argparse.ArgumentTypeError", "argparse.ArgumentError"):
        argument = MessageTemplate.of("argument ", Placeholder("argument"), ": ")
        if info.name == "ArgumentError":
            yield argument + message, "str(exc)"
        prog = MessageTemplate.of(Placeholder("prog"), ": error: ")
        yield prog + argument + message, "printed by argparse"


def prints_panels(files: Iterable[FileFacts]) -> bool:
    """The version imports rich's panels: a command line that draws its errors in one
    (typer's `╭─ Error ─╮`, rich-click's), where plain click prints `Error: ...`."""
    return any(
        target.startswith("rich.panel") for facts in files for target in facts.imports.values()
    )


def in_panels(forms: Iterable[ShownText]) -> list[ShownText]:
    """The forms a program prints as `Error: <text>`, marked as drawn in a rich panel."""
    out: list[ShownText] = []
    for form in forms:
        head = form.text.parts[0] if form.text.parts else None
        printed = form.how.startswith("printed by") and not form.how.endswith(IN_PANEL)
        if printed and isinstance(head, str) and head.startswith("Error: "):
            form = msgspec.structs.replace(form, how=form.how + IN_PANEL)
        out.append(form)
    return out


def _click(
    name: str, args: tuple[Arg, ...], message: MessageTemplate
) -> Iterator[tuple[MessageTemplate, str]]:
    error = MessageTemplate.of("Error: ")
    texts = [message]
    if name == "BadParameter":
        texts = [
            MessageTemplate.of("Invalid value for ", Placeholder("param_hint"), ": ") + message,
            MessageTemplate.of("Invalid value: ") + message,
        ]
    elif name == "FileError":  # FileError(filename, hint): the message is the file's name
        hint = _argument(args, 1, "hint") or MessageTemplate.of(Placeholder("hint"))
        opening = MessageTemplate.of("Could not open file ") + quoted(message)
        texts = [opening + MessageTemplate.of(": ") + hint]
    for text in texts:
        if text is not message:
            yield text, "format_message()"
        yield error + text, "printed by click"


def _argument(args: tuple[Arg, ...], position: int, name: str) -> MessageTemplate | None:
    """The template of the argument passed by `name` or at `position`."""
    positional = [a for a in args if a.name is None]
    given = next((a for a in args if a.name == name), None)
    if given is None and len(positional) > position:
        given = positional[position]
    if given is None:
        return None
    return given.template or MessageTemplate.of(Placeholder(given.source))
