"""What else a pasted error may be: its class where the parser read none (a class name alone,
a private class before `: `), and a class's name as a traceback prints it (old aliases)."""

from __future__ import annotations

import msgspec

from errdex.lazy_re import lazy_compile
from errdex.match.evidence import ErrorEvidence

__all__ = ["OLD_NAMES", "printed_name", "readings"]

# Python's old names of OSError: `raise IOError(...)` prints as `OSError: ...`.
OLD_NAMES = {"OSError": ("IOError", "EnvironmentError")}
_PRINTED = {old: new for new, olds in OLD_NAMES.items() for old in olds}


def printed_name(name: str) -> str:
    """A class's name as a traceback prints it: without its module, old aliases resolved."""
    short = name.rsplit(".", 1)[-1]
    return _PRINTED.get(short, short)


# A dotted name whose last part is a class name: `ClientDisconnect`, `pkg._Upgrade`. Bounded
# repeats, as the paste parser's: a paste is untrusted.
_CLASS = lazy_compile(r"(?:[A-Za-z_]\w{0,80}\.){0,12}_{0,2}[A-Z]\w{0,80}")


def _class_name(text: str) -> bool:
    """`text` is a class name: dotted, its last part CamelCase (`NotFound`, not `NOTE`)."""
    if len(text) > 1100 or not _CLASS.fullmatch(text):
        return False
    return any(c.islower() for c in text.rsplit(".", 1)[-1])


def readings(item: ErrorEvidence) -> list[ErrorEvidence]:
    """The error as read, and, where the parser found no class, with the class its message
    starts with: a class name alone (a bare `raise ClientDisconnect` prints just that) or
    before `: ` (`_Upgrade: <...>`, a private class the parser does not take for one)."""
    if item.exception is not None:
        return [item]
    text = item.message.strip()
    if _class_name(text):
        return [item, msgspec.structs.replace(item, exception=text, message="")]
    name, colon, rest = text.partition(": ")
    # A bare `Error: ` heads printed messages (click's `Error: ...`): no class of anyone's.
    if colon and rest and _class_name(name) and name.rsplit(".", 1)[-1] != "Error":
        return [item, msgspec.structs.replace(item, exception=name, message=rest)]
    return [item]
