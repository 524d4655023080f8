"""What Python itself prints for an exception's arguments when no class of the codebase says
otherwise: one argument is its `str()` (a `KeyError`'s its `repr()`), several are their tuple
of reprs, an `OSError`'s `(errno, strerror)` reads `[Errno 2] No such file`."""

from __future__ import annotations

from errdex.facts import Arg, MessageTemplate, Part, Placeholder

__all__ = ["arg_template", "builtin_str", "quoted"]

# `OSError(errno, strerror[, filename])` and its subclasses print `[Errno N] strerror`.
_OS_ERRORS = frozenset(
    """OSError IOError EnvironmentError FileNotFoundError FileExistsError PermissionError
    IsADirectoryError NotADirectoryError ConnectionError ConnectionRefusedError
    ConnectionResetError ConnectionAbortedError BrokenPipeError TimeoutError
    BlockingIOError ChildProcessError InterruptedError ProcessLookupError""".split()
)
# Builtins whose `str()` of one argument is its `repr()`.
_REPR_ONE = frozenset({"KeyError"})
# Builtins whose `str()` is none of the rules above (decoding errors build their own).
_OWN_STR = frozenset(
    {"UnicodeDecodeError", "UnicodeEncodeError", "UnicodeTranslateError", "SyntaxError"}
)


def arg_template(arg: Arg) -> MessageTemplate:
    """The argument's text as written, or the whole argument as one value."""
    return arg.template or MessageTemplate.of(Placeholder(arg.source))


def builtin_str(name: str, args: tuple[Arg, ...]) -> MessageTemplate | None:
    """`str()` of a builtin exception made with `args` (positional), by Python's rules;
    None when it is the one argument's own text (nothing to add) or a rule this does not
    know."""
    if name in _OWN_STR:
        return None
    if name in _OS_ERRORS and len(args) >= 2:
        errno, strerror = arg_template(args[0]), arg_template(args[1])
        text = MessageTemplate.of("[Errno ", *errno.parts, "] ", *strerror.parts)
        return text + MessageTemplate.of(": ") + _repr(args[2]) if len(args) > 2 else text
    if len(args) == 1:
        return _repr(args[0]) if name in _REPR_ONE else None
    if len(args) > 1:
        parts: list[Part] = ["("]
        for at, arg in enumerate(args):
            parts.extend((", " if at else "", *_repr(arg).parts))
        return MessageTemplate.of(*parts, ")")
    return None


def _repr(arg: Arg) -> MessageTemplate:
    """`repr()` of an argument: a number or a constant written out is its own repr."""
    template = arg_template(arg)
    if not template.placeholders and template.text == arg.source:
        return template  # `3`, `None`, `True`: not text
    return quoted(template)


def quoted(template: MessageTemplate) -> MessageTemplate:
    """`repr()` of a text: quoted as Python quotes it, its escapes written out. A value
    alone (`{value}`) may be anything: it keeps its placeholder, as `{value!r}`."""
    if len(template.parts) == 1 and isinstance(template.parts[0], Placeholder):
        only = template.parts[0]
        return MessageTemplate.of(Placeholder(only.expr, "r", only.spec))
    literal = "".join(p for p in template.parts if isinstance(p, str))
    quote = '"' if "'" in literal and '"' not in literal else "'"
    parts: list[Part] = [quote]
    for part in template.parts:
        if isinstance(part, str):
            parts.append(repr(part)[1:-1] if quote == "'" else _double_quoted(part))
        else:
            parts.append(part)
    parts.append(quote)
    return MessageTemplate.of(*parts)


def _double_quoted(text: str) -> str:
    escaped = repr(text + "'")[1:-2]  # repr picks `"` when the text holds a `'`
    return escaped.replace('\\"', '"') if escaped else ""
