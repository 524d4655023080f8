"""A source text with its letters in the form the parser reads names in, for a search of a
name in the text before parsing it."""

from __future__ import annotations

import functools
import unicodedata


@functools.lru_cache(maxsize=4)
def normal_form(text: str) -> str:
    """`text` in NFKC, the form the parser reads an identifier in (`ｘ` is `x`); an ASCII
    text as it is. Kept for a few texts: a page's rules search the same file again."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)
