"""Calls in the function bodies the skeleton blanked, read from their text.

A blanked body is never parsed, yet its calls are how the callers of a site's function are
found ("`LLM.__init__` calls `_validate`"). They are read here with one regular expression
over each blanked body, in the shapes `calls.call_target` records (`f(...)`, `self.f(...)`,
`mod.f(...)`), skipping strings, comments and nested `def`/`class` lines. What text
cannot give is the guard of the call: these calls carry none.
"""

from __future__ import annotations

import re

from errdex.extract.calls import NOT_RECEIVERS, CallFilter
from errdex.extract.textscan import after_word_boundary, inside_bounds
from errdex.facts import CallSite

# A name or dotted name called; which of these are the shapes recorded is checked after,
# since a plain pattern lets the regex engine skip ahead far faster than one with context.
_CALL = re.compile(r"[A-Za-z_][\w.]*\(")
_DEFINES = ("def ", "async def ", "class ")


def blanked_calls(
    text: str,
    spans: list[tuple[int, int, int]],
    functions_at: dict[int, tuple[str, str | None]],
    strings: list[int],
    keep: CallFilter,
) -> list[CallSite]:
    """The calls in each blanked body `(def offset, body start, body end)` of `text` that
    `keep` accepts.

    `functions_at` gives the (qualname, class) of the function whose `def` is on a line;
    `strings` are the triple-quoted strings' bounds (`textscan.triple_quoted_bounds`).
    """
    out: list[CallSite] = []
    at_line, line = 0, 1  # a line number known for an offset, counted forward from there
    for head, body, end in spans:
        line += text.count("\n", at_line, head)
        at_line = head
        owner = functions_at.get(line)
        if owner is None:
            continue  # the skeleton and the tree disagree on this function: claim nothing
        qualname, class_name = owner
        for match in _CALL.finditer(text, body, end):
            start = match.start()
            if text[start - 1] == "." or not after_word_boundary(text, start):
                continue  # the tail of `a.b.c(`, `x().y(`, `1.5e3(`...
            receiver, _, callee = match.group()[:-1].rpartition(".")
            if "." in receiver or receiver in NOT_RECEIVERS:
                continue
            if not keep.accepts(callee, receiver or None) or inside_bounds(strings, start):
                continue
            line_start = text.rfind("\n", 0, start) + 1
            before = text[line_start:start]
            if "#" in before or before.lstrip().startswith(_DEFINES):
                continue
            if before.count('"') % 2 or before.count("'") % 2:
                continue  # inside a one-line string: `f"Config({name=})"` calls nothing
            line += text.count("\n", at_line, start)
            at_line = start
            out.append(CallSite(callee, receiver or None, line, qualname, class_name))
    return out
