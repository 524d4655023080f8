"""One top-level class of a file, found in its text and parsed alone: a reader of one class
of a 3,000-line file need not parse all of it."""

from __future__ import annotations

import ast


def class_at(text: str, start: int) -> ast.ClassDef | None:
    """The top-level class whose `class` line starts at offset `start`, with the decorators
    above it, parsed alone with the file's line numbers. Its lines run to the next line that
    starts at the margin (a closing bracket or a comment there does not end it); None when
    those lines do not parse as one class (a string literal's line at the margin, say)."""
    top, end, first = class_span(text, start)
    # Blank lines before it give the nodes the file's line numbers (walking the tree to
    # renumber it costs more than parsing it).
    try:
        tree = ast.parse("\n" * first + (text[top:end] if end >= 0 else text[top:]))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    node = tree.body[0] if len(tree.body) == 1 else None
    return node if isinstance(node, ast.ClassDef) else None


def class_span(text: str, start: int) -> tuple[int, int, int]:
    """What `class_at` cuts for the class at offset `start`: (the offset of its first line,
    decorators included; the offset its lines end at, -1 for the text's end; the number of
    lines above it)."""
    top, first = start, text.count("\n", 0, start)
    while top > 0:
        above = text.rfind("\n", 0, top - 1) + 1
        if not text.startswith("@", above):
            break
        top, first = above, first - 1
    end = text.find("\n", start)
    while end >= 0:
        after = text[end + 1 : end + 2]
        if after and not after.isspace() and after not in ")]#":
            break
        end = text.find("\n", end + 1)
    return top, end, first
