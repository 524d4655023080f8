"""The `from module import name` statements of the function bodies the skeleton blanked.

A function that imports what it calls (`from ._termui_impl import ProgressBar`, then
`return ProgressBar(...)`: a lazy import, common in command-line entry points and large
packages) calls into the codebase through that name. The walker sees such an import only in
a body it parses; a blanked body's calls are read from its text (`blanked_calls`), which
keeps a call only when its name is known to reach the codebase. So the imports of blanked
bodies are read here first, each statement parsed alone (a few hundred characters at
most), and bind their names as the walker's own local imports do.
"""

from __future__ import annotations

import ast

from errdex.extract.textscan import inside_bounds
from errdex.lazy_re import lazy_compile

# A `from` statement starting a line (its words first, so the scan jumps to each `from`).
_FROM = lazy_compile(r"from[ \t]+\.*[\w.]*[ \t]+import\b")
MAX_STATEMENT = 2_000  # characters: longer is no import a body makes of a few names


def blanked_imports(
    text: str,
    spans: list[tuple[int, int, int]],
    tails: list[tuple[int, int, int]],
    strings: list[int],
) -> list[ast.ImportFrom]:
    """The `from ... import ...` statements inside each blanked body or tail
    `(def offset, start, end)` of `text`, outside triple-quoted `strings`, in text order."""
    return [statement for _, statement in from_imports(text, [*spans, *tails], strings)]


def from_imports(
    text: str, regions: list[tuple[int, int, int]], strings: list[int]
) -> list[tuple[int, ast.ImportFrom]]:
    """(offset, statement) of each `from ... import ...` statement starting a line inside
    each region `(any, start, end)` of `text`, outside triple-quoted `strings`, in text
    order."""
    found: list[tuple[int, ast.ImportFrom]] = []
    for _, start, end in sorted(regions, key=lambda region: region[1]):
        for match in _FROM.finditer(text, start, end):
            at = match.start()
            line_start = text.rfind("\n", 0, at) + 1
            if text[line_start:at].strip() or inside_bounds(strings, at):
                continue  # not the line's first word (`yield from x`), or inside a string
            statement = _statement(text, at, end)
            if statement is not None:
                found.append((at, statement))
    return found


def _statement(text: str, at: int, end: int) -> ast.ImportFrom | None:
    """The import statement starting at `at`: to its line's end, or to the bracket that
    closes its list of names (or the last `\\`-continued line)."""
    stop = at
    while True:
        line_end = text.find("\n", stop, end)
        line_end = end if line_end == -1 else line_end
        source = text[at:line_end]
        if len(source) > MAX_STATEMENT:
            return None
        open_brackets = source.count("(") - source.count(")")
        if (open_brackets <= 0 and not source.rstrip().endswith("\\")) or line_end >= end:
            break
        stop = line_end + 1
    try:
        tree = ast.parse(source.split(";")[0])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    statement = tree.body[0] if len(tree.body) == 1 else None
    return statement if isinstance(statement, ast.ImportFrom) else None
