"""Locals a loop around the site assigns again: their first binding is not what the check reads.

`remaining = timeout` before `while not done: if remaining <= 0: raise ...; remaining -=
delay` binds `remaining` once, but the check reads it after the loop body has lowered it:
"here `remaining` is `timeout`" is true only of the first turn, and a way out read through
it ("pass `timeout` above 0") is one the path already holds. A local assigned inside a loop
that holds the site, where the binding read is before the loop, is dropped from the page's
bindings: the check reads a value the loop made, which no argument sets alone. A binding
inside the loop runs again on each turn before the site, and stays.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts, async_function_at, lines_of
from errdex.explain.input_nodes import assignment_targets, stored_roots
from errdex.explain.page import BindingView

__all__ = ["without_loop_rebound"]

_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def without_loop_rebound(facts: Facts) -> list[BindingView]:
    """The page's bindings less the locals a loop holding the site assigns again."""
    site_line = facts.stored.site.line
    local = {
        b.name
        for b in facts.bindings
        if b.origin == "local" and b.line and _loop_between(facts.source_text, b.line, site_line)
    }
    if not local:
        return facts.bindings  # no loop header between a binding and the site: no parse
    function: ast.AST | None = facts.site_function()
    if function is None:
        site = facts.stored.site
        name = site.function.rpartition(".")[2]
        function = async_function_at(facts.source_text, name, site.line)
    if function is None:
        return facts.bindings
    line = facts.stored.site.line
    loops = [
        node
        for node in walk(function)
        if isinstance(node, _LOOPS) and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    if not loops:
        return facts.bindings
    # a local bound inside the loop is bound again on each turn before the site: only one
    # bound before the loop and assigned in it holds the loop's value at the check
    spans = [(loop.lineno, loop.end_lineno or loop.lineno) for loop in loops]
    stale: set[tuple[str, int]] = set()
    for loop, (start, end) in zip(loops, spans, strict=True):
        for node in walk(loop):
            targets = assignment_targets(node)
            if isinstance(node, ast.For | ast.AsyncFor):
                targets = [node.target]  # (a comprehension's names are its own)
            for target in targets:
                for stored in stored_roots(target):
                    if stored in local:
                        stale.update(
                            (b.name, b.line or 0)
                            for b in facts.bindings
                            if b.name == stored and not start <= (b.line or 0) <= end
                        )
    return [b for b in facts.bindings if b.origin != "local" or (b.name, b.line or 0) not in stale]


# A loop's header line: `for`, `async for`, `while`.
_LOOP_HEADER = re.compile(r"\s*(?:async\s+for|for|while)\b")


def _loop_between(text: str | None, start: int, site: int) -> bool:
    """Whether a loop header less indented than the site lies after line `start` and
    before it (a loop holding the site, that the binding at `start` is before), read in
    the text alone."""
    if text is None or not 0 < start < site:
        return False
    lines = lines_of(text)
    if site > len(lines):
        return False
    depth = len(lines[site - 1]) - len(lines[site - 1].lstrip())
    for line in lines[start : site - 1]:
        if _LOOP_HEADER.match(line) and len(line) - len(line.lstrip()) < depth:
            return True
    return False
