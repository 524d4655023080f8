"""A flag the message names that the version does not declare, and the flag in its place.

“Use --label-output-length to specify the correct field name.”: the benchmark declares
`--timed-trace-label-output-length` and sets `self.label_output_length =
str(kwargs.get("timed_trace_label_output_length"))`; the message kept an old name, and a
user who follows it meets argparse's “unrecognized arguments”. A flag the message names is
stale when the version declares no such flag (`verified` asks: by name, made by a generator
of an arguments class's fields, or written in the site's file), and the attribute of the
flag's name (`self.label_output_length`) is set, in the site's file, from exactly one flag
the version declares (its destination read: `args.x`, `kwargs.get("x")`): that flag sets
what the message's flag would. An attribute the message shows beside the flag (“Timestamp
field '{self.label_ts}' not found ... Use --label-timestamp”) is read the same way when none
has the flag's name, and then the declared flag must end with the named one's words. Without
such a flag nothing is said here: an index may not see every parser a flag comes from (a
test plugin's options, a decorator's).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.link.parsed_classes import field_flag

__all__ = ["StaleFlag", "stale_flag"]

# The lines a value may span after `self.x =` (a call broken over lines).
_MAX_LINES = 8


@dataclass(frozen=True)
class StaleFlag:
    named: str  # the flag the message names: `--label-output-length`
    declared: str  # the declared flag that sets the same attribute
    attribute: str  # `self.label_output_length`
    line: int  # where the attribute is set from the declared flag

    def swapped(self, text: str) -> str:
        """`text` with the named flag replaced by the declared one."""
        return re.sub(rf"(?<![\w-]){re.escape(self.named)}(?![\w-])", self.declared, text)


def stale_flag(
    flag: str, text: str, defined: frozenset[str], attribute: str | None = None
) -> StaleFlag | None:
    """The flag the version declares in place of `flag` (which it does not declare), read
    from the assignments of the attribute of `flag`'s name in the file `text`; None when no
    one declared flag sets it. With `attribute` (one the message shows: `{self.label_ts}`
    beside “Use --label-timestamp”), that attribute is read instead, and the declared flag
    must end with the named one's words (`--timed-trace-label-timestamp`)."""
    field = attribute or flag[2:].replace("-", "_")
    if not field.isidentifier():
        return None
    setting = re.compile(
        rf"^[ \t]*((?:self|cls)\.{re.escape(field)})[ \t]*(?::[^=\n]*)?=(?!=)", re.M
    )
    found: dict[str, tuple[str, int]] = {}
    for match in setting.finditer(text):
        value = _value(text, match.end())
        if value is None:
            return None  # a value not read: unsure what sets the attribute
        line = text.count("\n", 0, match.start()) + 1
        for name in _names_read(value):
            if name != field and field_flag(name) in defined:
                found.setdefault(name, (match.group(1), line))
    if attribute is not None:
        found = {n: at for n, at in found.items() if field_flag(n).endswith(f"-{flag[2:]}")}
    if len(found) != 1:
        return None
    ((name, (assigned, line)),) = found.items()
    return StaleFlag(flag, field_flag(name), assigned, line)


def _value(text: str, start: int) -> ast.expr | None:
    """The expression assigned from `start` on, over as many lines as it takes."""
    rest = text[start:].split("\n", _MAX_LINES)
    for count in range(1, len(rest) + 1):
        source = "\n".join(rest[:count]).strip()
        try:
            return ast.parse(source, mode="eval").body
        except SyntaxError:
            continue
    return None


def _names_read(value: ast.expr) -> set[str]:
    """The names, attributes and string keys the expression reads."""
    out: set[str] = set()
    for node in ast.walk(value):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
    return out
