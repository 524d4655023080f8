"""A few top-level statements of a file parsed alone, cut at the lines its stored outline
says they start (`extract.module.top_starts`), not the whole file: a rule reading a large
file's imports or one of its classes need not parse its 4,000 lines."""

from __future__ import annotations

import ast
import functools
import itertools
import re
from collections.abc import Callable, Collection, Sequence

from errdex.explain.name_forms import normal_form
from errdex.explain.parse_cache import kept_parse

# Which top-level statements a rule reads: told from the statement's text (its first line
# is the statement's own: a keyword, a name, or a decorator's `@`), its first line and the
# line the next one starts on. Keeping more than a rule reads only costs parsing.
Keep = Callable[[str, int, int], bool]

_IMPORT = re.compile(r"[ \t\f]*(?:from|import)\b")
_DEFINITION = re.compile(r"[ \t\f]*(?:(?:def|class|async)\b|@)")
_WORD = re.compile(r"\w+")
_WORD_CHARACTER = re.compile(r"\w")
_STAR = r"\bimport\s+\*"  # `from .errors import *`: any name may be bound by it


def defining(name: str) -> Keep:
    """The top-level functions and classes that may be `name` (a header of that name in
    their text: a class holding a method of that name is kept too)."""
    return _defining(name, at_margin=False)


def importing_or_defining(name: str) -> Keep:
    """The top-level imports, and the top-level functions and classes named `name` (their
    header at the margin: a class holding a method of that name is not kept, since the
    readers of these look names up at the top of the module alone)."""
    defines = _defining(name, at_margin=True)
    return lambda chunk, start, end: _IMPORT.match(chunk) is not None or defines(chunk, start, end)


def binding(names: Collection[str]) -> Keep:
    """The top-level statements that may bind one of `names` at the top of the module: those
    writing it (or a star import) but a function or class of another name (a class whose
    bases name it, a function whose body does)."""
    words = [n for n in names if _WORD.fullmatch(n)]
    if len(words) < len(names):
        return lambda chunk, start, end: True  # a character `\w` does not take: every one
    written = re.compile("|".join([rf"\b{re.escape(w)}\b" for w in words] + [_STAR]))

    def keep(chunk: str, start: int, end: int) -> bool:
        if chunk.isascii() and written.search(chunk) is None:
            return False
        if _DEFINITION.match(chunk) is None:
            return True
        return any(_names_header(chunk, w, at_margin=True) for w in words)

    return keep


def _defining(name: str, *, at_margin: bool) -> Keep:
    if not _WORD.fullmatch(name):
        # a character `\w` does not take (a combining mark): every definition
        return lambda chunk, start, end: _DEFINITION.match(chunk) is not None
    return lambda chunk, start, end: (
        name in chunk
        and _DEFINITION.match(chunk) is not None
        and _names_header(chunk, name, at_margin=at_margin)
    )


def may_define(text: str, name: str) -> bool:
    """Whether `text` may hold a function or class `name`: a `def` or `class` header of that
    name, its letters read as the parser reads them."""
    return _names_header(normal_form(text), name)


def _names_header(chunk: str, name: str, *, at_margin: bool = False) -> bool:
    """Whether a `def` or `class` header in `chunk` is of `name` (`at_margin`: one whose
    keyword, or the `async` before it, starts a line): only the places the name is written
    are looked at (matching every header of a 6,000-line class cost milliseconds for each
    name asked)."""
    at = chunk.find(name)
    while at != -1:
        if _WORD_CHARACTER.match(chunk, at + len(name)) is None:
            keyword = _keyword_before(chunk, at, ("def", "class"))
            if keyword != -1 and (not at_margin or _header_at_margin(chunk, keyword)):
                return True
        at = chunk.find(name, at + 1)
    return False


def _header_at_margin(chunk: str, keyword: int) -> bool:
    """Whether the header keyword at `keyword`, or an `async` before it, starts a line."""
    if _at_margin(chunk, keyword):
        return True
    before = _keyword_before(chunk, keyword, ("async",))
    return before != -1 and _at_margin(chunk, before)


def _at_margin(chunk: str, at: int) -> bool:
    """Whether only form feeds come between the start of the line and `at`."""
    while at >= 1 and chunk[at - 1] == "\f":
        at -= 1
    return at == 0 or chunk[at - 1] == "\n"


def _keyword_before(chunk: str, at: int, keywords: tuple[str, ...]) -> int:
    """Where one of `keywords`, a word of its own, starts when it and then blanks (or a
    line continued with `\\`) come right before `at`; -1 when none does."""
    blank = at
    while True:
        if blank >= 1 and chunk[blank - 1] in " \t\f":
            blank -= 1
        elif blank >= 2 and chunk[blank - 2 : blank] == "\\\n":
            blank -= 2
        else:
            break
    if blank == at:
        return -1
    for keyword in keywords:
        first = blank - len(keyword)
        if (
            first >= 0
            and chunk.startswith(keyword, first)
            and (first == 0 or _WORD_CHARACTER.match(chunk, first - 1) is None)
        ):
            return first
    return -1


def any_import(chunk: str, start: int, end: int) -> bool:
    """The statements that may hold an import anywhere in them."""
    return "import" in chunk


def importing_any(names: Collection[str]) -> Keep:
    """The statements that may import one of `names` anywhere in them (an import's name is
    written in it: `import a.b as c` binds `c`, `import a.b` binds `a`)."""

    def keep(chunk: str, start: int, end: int) -> bool:
        return "import" in chunk and (not chunk.isascii() or any(name in chunk for name in names))

    return keep


def compiling(chunk: str, start: int, end: int) -> bool:
    """The statements that may compile a pattern (`NAME = re.compile(...)`)."""
    return "compile" in chunk


def holding(line: int) -> Keep:
    """The top-level statement whose lines hold `line`."""
    return lambda chunk, start, end: start <= line < end


def top_statements(text: str, starts: Sequence[int] | None, keep: Keep) -> list[ast.stmt] | None:
    """The top-level statements of `text` that `keep` takes, in order, parsed alone with
    their nodes at the file's lines and columns: the text from each start to the next is
    one or more whole statements. None when `starts` is unknown or does not fit the text
    (the caller parses the whole file then)."""
    pieces_of = _pieces(text, tuple(starts)) if starts else None
    if pieces_of is None:
        return None
    pieces: list[str] = []
    kept: list[int] = []
    at = 1  # the line the source being made has reached
    for start, end, chunk in pieces_of:
        if keep(chunk, start, end):
            pieces.extend(("\n" * (start - at), chunk, "\n"))
            kept.append(start)
            at = end
    if not kept:
        return []

    def parse() -> tuple[list[ast.stmt] | None, int]:
        source = "".join(pieces)
        tree = _parse(source)
        if tree is None:
            return None, len(source)
        firsts = {_first_line(s) for s in tree.body}
        return (tree.body if firsts.issuperset(kept) else None), len(source)

    body = kept_parse(text, ("statements", *kept), parse)
    return list(body) if body is not None else None  # (the kept list is shared)


@functools.lru_cache(maxsize=4)
def _pieces(text: str, starts: tuple[int, ...]) -> tuple[tuple[int, int, str], ...] | None:
    """Each top-level statement's first line, the next one's, and its text; cut once for
    the rules of a page (and the next page of the file), which keep different ones. None
    when the starts do not fit the text."""
    if "\r" in text or "barry_as_FLUFL" in text:
        return None  # a line end the parser counts and `split` does not; `<>` parsing
    lines = text.split("\n")
    if starts[0] < 1 or starts[-1] > len(lines):
        return None
    bounds = [*starts, len(lines) + 1]
    out = []
    for start, end in itertools.pairwise(bounds):
        if end <= start:
            return None
        out.append((start, end, "\n".join(lines[start - 1 : end - 1])))
    return tuple(out)


def top_module(text: str | None, starts: Sequence[int] | None, keep: Keep) -> ast.Module | None:
    """The file's top-level statements `keep` takes, as a module (parsed alone when
    `starts` fits the text, else the whole file); None when the text is unknown or does
    not parse."""
    if text is None:
        return None
    body = top_statements(text, starts, keep)
    return ast.Module(body=body, type_ignores=[]) if body is not None else _parse(text)


def _parse(text: str) -> ast.Module | None:
    """`context.parse_module` (which imports this module)."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    return decorators[0].lineno if decorators else statement.lineno
