"""Raises whose text the class's user may give: `raise ValueError(self.message or "Not a
valid integer value.")`. The written text is the default; a user who set the message (a
form field's `invalid_value_message=`, a validator's `message=`) pastes their own, which
no index holds. Such a raise is matched by its class, as one whose text is computed, and the
words its default shares with the paste (a reworded default names the same thing) tell
the raises of one class apart.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from errdex.facts import ErrorSite
from errdex.match.words import stems

__all__ = ["given_text", "shared_with_default"]

_MESSAGE_KEYWORDS = frozenset({"msg", "message", "detail", "reason", "text", "description"})


def given_text(site: ErrorSite) -> str | None:
    """The source of the text a caller may give in place of the site's written one
    (`self.invalid_value_message` of `self.invalid_value_message or gettext("...")`), or
    None when the message is not chosen that way."""
    arg = next((a for a in site.args if a.name is None), None)
    if arg is None:
        arg = next((a for a in site.args if a.name in _MESSAGE_KEYWORDS), None)
    return _given(arg.source) if arg is not None else None


@lru_cache(maxsize=4096)
def _given(source: str) -> str | None:
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


def shared_with_default(site: ErrorSite, message: str) -> list[str]:
    """Stems of the paste's words that the default text also has (`date` of `Enter a date
    as YYYY-MM-DD.` and `Not a valid date value.`)."""
    default = site.message.literal_text if site.message is not None else ""
    return sorted(set(stems(message)) & set(stems(default)))
