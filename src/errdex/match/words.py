"""The words of a message as lookup compares them: stems shared with a site's guard or
function name, and whether a paste shows any piece of a site's own text."""

from __future__ import annotations

import re

from errdex.facts import MessageTemplate
from errdex.lazy_re import lazy_compile

__all__ = ["shows_none_of", "stems"]

# Literal characters from which a site's template is a text of its own (not `{e}`, `: {e}`).
_OWN_TEXT = 6

_CAMEL = lazy_compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


_COMMON = frozenset(
    "erro exce warn none self true fals isin call valu type the and for not with from".split()
)


def stems(text: str) -> list[str]:
    """Stems of the words of a text: CamelCase and snake_case split (`MaxRetryError` →
    `max`, `retr`), first four letters, so `retries` meets `Retry`; common words left out."""
    stems = (w[:4].lower() for w in _CAMEL.findall(text) if len(w) >= 3)
    return [s for s in stems if s not in _COMMON]


def shows_none_of(template: MessageTemplate | None, message: str) -> bool:
    """The template writes a text of its own and the message holds no piece of it (two
    words in a row): the paste shows another text than this site's, where a site whose
    text is computed could have made it. A short text written out whole is a value (`raise
    Exit(130)`): the paste shows another when its message does not hold it as a word."""
    if template is None or not template.literal_length:
        return False
    if template.literal_length < _OWN_TEXT:
        value = "".join(p for p in template.parts if isinstance(p, str)).strip()
        return (
            not template.placeholders
            and bool(value and message.strip())
            and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", message) is None
        )
    held = " ".join(message.split()).lower()
    for part in template.parts:
        words = part.lower().split() if isinstance(part, str) else []
        if len("".join(words)) < _OWN_TEXT:
            continue
        pieces = (" ".join(words[i : i + 2]) for i in range(max(1, len(words) - 1)))
        if any(len(piece) >= _OWN_TEXT and piece in held for piece in pieces):
            return False
    return True
