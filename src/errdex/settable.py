"""Raises whose text a user of the class may set: `raise ValueError(self.message or "Not a
valid integer value.")`. The written text is the default; a user who set the message (a
form field's `invalid_value_message=`, a validator's `message=`) sees their own, which no
index holds. The store keys such raises by their class (`settable_key`), so that a lookup
whose message no text explains finds them.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from errdex.lazy_re import lazy_compile

__all__ = ["SETTABLE_MARK", "Argument", "settable_key", "settable_text"]

# Marks, among a search text's exception names, the class of a raise whose text is settable.
SETTABLE_MARK = "errdexsettable_"
_MESSAGE_KEYWORDS = frozenset({"msg", "message", "detail", "reason", "text", "description"})


class Argument(Protocol):
    """What of a call's argument (an `Arg`) is read."""

    @property
    def source(self) -> str: ...
    @property
    def name(self) -> str | None: ...


class _Raise(Protocol):
    """What of a site (an `ErrorSite`, or the part a store's writer decodes) is read."""

    @property
    def args(self) -> Sequence[Argument]: ...


def settable_text(site: _Raise) -> str | None:
    """The source of the text a user may set in place of the site's written one
    (`self.invalid_value_message` of `self.invalid_value_message or gettext("...")`), or
    None when the message is not chosen that way."""
    arg = next((a for a in site.args if a.name is None), None)
    if arg is None:
        arg = next((a for a in site.args if a.name in _MESSAGE_KEYWORDS), None)
    return _settable(arg.source) if arg is not None else None


def settable_key(exception: str) -> str:
    """The search term of the raises of `exception` (its last name) whose text is settable."""
    return SETTABLE_MARK + exception.rsplit(".", 1)[-1]


# The `or` keyword as the tokenizer reads it: not the end of a name before it, not the
# start of one after it. A text without one cannot be `x or "..."`: it is not parsed.
_OR = lazy_compile(r"(?<![^\W\d])or(?!\w)")


@lru_cache(maxsize=4096)
def _settable(source: str) -> str | None:
    if _OR.search(source) is None:
        return None
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.BoolOp) or not isinstance(node.op, ast.Or):
        return None
    first = node.values[0]
    if not isinstance(first, ast.Name | ast.Attribute | ast.Subscript):
        return None  # `"" or ...`, a call: not a text someone sets
    return ast.unparse(first)
