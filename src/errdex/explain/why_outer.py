"""The functions around a check that document its error though the check is not in their
own body's text: the helper a call of a raising helper reaches (its raise is in the
helper, `Raises: TypeError: If the alias generator produces an invalid type.`), and the
function a closure is defined in (`version_option`'s `:raise RuntimeError: ``version``
could not be detected.` over the raise in its `callback`). Each is found in the text: the
`def` that holds a line, by its indentation."""

from __future__ import annotations

import re
from collections.abc import Sequence

from errdex.explain.context import Facts, function_span, lines_of
from errdex.store.base import Store, StoredSite

_DEF = re.compile(r"(\s*)(?:async\s+)?def\s+(\w+)\s*[(\[]")
_LOCALS = ".<locals>."
_MAX_UP = 3000  # the lines read up from a raise for the `def` it is in


def helper_text(store: Store, stored: StoredSite) -> str | None:
    """The text of the file a helper site's raise is in, when that is another file."""
    found = stored.helper_raise
    if found is None or found[0] == stored.file:
        return None
    return store.file_text(stored.version_id, found[0])


def enclosing_def(lines: Sequence[str], line: int) -> tuple[int, str] | None:
    """The `def` (0-based line, name) whose body holds `line` (1-based): the nearest `def`
    above it that is less indented than it, with no line at or left of that `def`'s margin
    between them (which would end its body)."""
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    margin = len(text) - len(text.lstrip())
    at = line - 2
    while at >= 0 and line - at <= _MAX_UP:
        here = lines[at]
        stripped = here.strip()
        indent = len(here) - len(here.lstrip())
        if stripped and not stripped.startswith(("#", ")", "]", "}")) and indent < margin:
            found = _DEF.match(here)
            if found is not None:
                return at, found.group(2)
            margin = indent  # a block that holds the line (an `if`, a `class`): go on out
            if indent == 0:
                return None
        at -= 1
    return None


def helper_def(facts: Facts) -> tuple[str, Sequence[str], int, str] | None:
    """The helper a helper site's raise is in: (its file, the file's lines, the `def`'s
    0-based line, its name); None for another site, or when its text is not known."""
    found = facts.stored.helper_raise
    if found is None:
        return None
    file, line = found
    text = facts.source_text if file == facts.stored.file else facts.helper_text
    if text is None:
        return None
    lines = lines_of(text)
    at = enclosing_def(lines, line)
    return (file, lines, at[0], at[1]) if at is not None else None


def outer_defs(facts: Facts) -> list[tuple[int, str]]:
    """The functions a closure the site is in is defined in, innermost first: (0-based line,
    name) of each `def` of its qualname's `outer.<locals>.inner` that holds the site."""
    function = facts.stored.site.function
    if _LOCALS not in function or facts.source_text is None:
        return []
    parts = function.split(_LOCALS)[:-1]
    out: list[tuple[int, str]] = []
    for part in reversed(parts):
        name = part.rpartition(".")[2]
        span = function_span(facts.source_text, name, facts.stored.site.line)
        if span is None:
            break
        out.append((span[0], name))
    return out
