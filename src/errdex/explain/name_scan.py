"""A name looked for in source text with `str.find`, compiling no pattern per name.

A page's rules ask whether the site's file calls a function, reads a name or declares a
class, each a pattern made of the name (`(?<![\\w.])name\\(`). Every such pattern is new to
the process (the next page asks of other names), so each costs a compile, about a tenth of
a millisecond to half of one: 508 of them on the 200 cold pages of `bench/web_instructions.py
--seed 7`, some 1.2 ms a page. A lookbehind also makes the engine try the pattern at every
character of the file. These find the same matches from the name's occurrences, with the
same reading of a word character (`\\w`) as the engine's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from errdex.extract.textscan import occurrences

__all__ = [
    "called_in",
    "ends_word",
    "free_starts",
    "margin_class",
    "names_word",
    "reads_name",
    "spaces_before",
    "whole_word",
    "word_char",
]

_WORD = re.compile(r"\w")
_SPACE = re.compile(r"\s")
_CLASS = "class"


def word_char(text: str, at: int) -> bool:
    """Whether the character at `at` is one `\\w` matches (False outside the text)."""
    return 0 <= at < len(text) and _WORD.match(text, at) is not None


def ends_word(text: str, at: int) -> bool:
    """`(?!\\w)` at `at`: no word character follows."""
    return not word_char(text, at)


def spaces_before(text: str, at: int) -> int:
    r"""Where the run of whitespace (`\s`) that ends at `at` starts (`at` when there is none)."""
    while at and _SPACE.match(text, at - 1) is not None:
        at -= 1
    return at


def called_in(text: str, name: str) -> bool:
    r"""`re.search(rf"(?<![\w]){re.escape(name)}\(", text) is not None`."""
    return any(text.startswith("(", at + len(name)) for at in free_starts(text, name))


def reads_name(text: str, name: str) -> bool:
    r"""`re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) is not None`: the name as a
    whole, not `self.x` in `self.x_size`, nor `x` in `self.x`."""
    return any(ends_word(text, at + len(name)) for at in free_starts(text, name, dotted=True))


def free_starts(text: str, name: str, *, dotted: bool = False) -> Iterator[int]:
    """The offset of each occurrence of `name` right after no word character (nor a dot,
    with `dotted`): where `(?<![\\w])name` (`(?<![\\w.])name`) matches, in order."""
    for at in occurrences(text, name):
        if word_char(text, at - 1) or (dotted and at and text[at - 1] == "."):
            continue
        yield at


def names_word(text: str, name: str) -> bool:
    """`re.search(rf"(?<![\\w]){re.escape(name)}\b", text) is not None`."""
    if not name or not word_char(name, len(name) - 1):
        return re.search(rf"(?<![\w]){re.escape(name)}\b", text) is not None
    return any(ends_word(text, at + len(name)) for at in free_starts(text, name))


def whole_word(text: str, word: str) -> bool:
    """`re.search(rf"\\b{re.escape(word)}\\b", text) is not None`."""
    if not word or not (word_char(word, 0) and word_char(word, len(word) - 1)):
        return re.search(rf"\b{re.escape(word)}\b", text) is not None
    return any(ends_word(text, at + len(word)) for at in free_starts(text, word))


def margin_class(text: str, name: str) -> tuple[int, int] | None:
    """(line, offset) of the first match of `class\\s+name\\b` at the start of the text or
    right after a line break, as `context.at_margin(class_header(name), text)` gives it
    first: its line (0-based) and where its match starts (0, or the line break's
    offset); None when no line starts so."""
    if not name or not (word_char(name, 0) and word_char(name, len(name) - 1)):
        return _margin_class_searched(text, name)
    for at in occurrences(text, name):
        if not ends_word(text, at + len(name)):
            continue
        before = spaces_before(text, at)
        keyword = before - len(_CLASS)
        if before == at or keyword < 0 or not text.startswith(_CLASS, keyword):
            continue
        if keyword == 0:
            return 0, 0
        if text[keyword - 1] == "\n":
            return text.count("\n", 0, keyword - 1) + 1, keyword - 1
    return None


def _margin_class_searched(text: str, name: str) -> tuple[int, int] | None:
    header = rf"class\s+{re.escape(name)}\b"
    if re.match(header, text) is not None:
        return 0, 0
    found = re.search(rf"\n(?:{header})", text)
    return (text.count("\n", 0, found.start()) + 1, found.start()) if found else None
