"""A few top-level statements of a file parsed alone, cut at the lines its stored outline
says they start (`extract.module.top_starts`), not the whole file: a rule reading a large
file's imports or one of its classes need not parse its 4,000 lines."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable, Sequence

from errdex.explain.parse_cache import kept_parse

# Which top-level statements a rule reads: told from the statement's text (its first line
# is the statement's own: a keyword, a name, or a decorator's `@`), its first line and the
# line the next one starts on. Keeping more than a rule reads only costs parsing.
Keep = Callable[[str, int, int], bool]

_IMPORT = re.compile(r"[ \t\f]*(?:from|import)\b")
_DEFINITION = re.compile(r"[ \t\f]*(?:(?:def|class|async)\b|@)")
# a `def` or `class` header's name, anywhere in a statement's text
_HEADER = re.compile(r"\b(?:def|class)(?:[ \t\f]|\\\n)+(\w+)")
_WORD = re.compile(r"\w+")


def defining(name: str) -> Keep:
    """The top-level functions and classes that may be `name` (a header of that name in
    their text: a class holding a method of that name is kept too)."""
    if not _WORD.fullmatch(name):
        # a character `\w` does not take (a combining mark): every definition
        return lambda chunk, start, end: _DEFINITION.match(chunk) is not None

    def keep(chunk: str, start: int, end: int) -> bool:
        return (
            name in chunk
            and _DEFINITION.match(chunk) is not None
            and any(m.group(1) == name for m in _HEADER.finditer(chunk))
        )

    return keep


def importing_or_defining(name: str) -> Keep:
    """The top-level imports, and the functions and classes that may be `name`."""
    defines = defining(name)
    return lambda chunk, start, end: _IMPORT.match(chunk) is not None or defines(chunk, start, end)


def any_import(chunk: str, start: int, end: int) -> bool:
    """The statements that may hold an import anywhere in them."""
    return "import" in chunk


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
    if not starts or "\r" in text or "barry_as_FLUFL" in text:
        return None  # a line end the parser counts and `split` does not; `<>` parsing
    lines = text.split("\n")
    if starts[0] < 1 or starts[-1] > len(lines):
        return None
    bounds = [*starts, len(lines) + 1]
    pieces: list[str] = []
    kept: list[int] = []
    at = 1  # the line the source being made has reached
    for start, end in itertools.pairwise(bounds):
        if end <= start:
            return None
        chunk = "\n".join(lines[start - 1 : end - 1])
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
