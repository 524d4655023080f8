"""A way out whose branch leads back into the same check: no way out.

A solution that makes a condition of the path false sends the code down the other branch
of its `if`. When that branch calls the raising function again with none of what the way
out changed (`if isinstance(x, Mapping): return {k: normalize(v) ...}`, `if args: return
decorator()(*args)`), the same check runs again on the same values: the user meets the
same error, one call deeper. Only the function's own branch is read (one
function parsed alone, and only when its text calls its own name at all).
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts, function_at, function_span, lines_of
from errdex.explain.name_scan import called_in
from errdex.explain.page import Solution
from errdex.facts import BRANCH_KINDS

__all__ = ["leads_back"]


def leads_back(solution: Solution, facts: Facts) -> bool:
    """Whether the solution's way out takes a branch that calls the raising function again."""
    if solution.condition is None or facts.source_text is None:
        return False
    site = facts.stored.site
    conditions = [
        c for c in facts.conditions if c.text == solution.condition and c.kind in BRANCH_KINDS
    ]
    if not conditions:
        return False
    name = site.function.rsplit(".", 1)[-1]
    if name.startswith("<") or not _calls_itself(facts.source_text, name, site.line):
        return False
    function = function_at(facts.source_text, name, site.line)
    if function is None:
        return False
    tested = _names(solution.condition)
    for condition in conditions:
        branch = _other_branch(function, condition.line, condition.holds)
        if branch and _always_calls(branch, name, tested):
            return True
    return False


_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.Match)


def _always_calls(branch: list[ast.stmt], name: str, tested: set[str]) -> bool:
    """Whether the branch calls the function on every path through it: a call in one of its
    own statements, before any nested block that may leave it (`if x is None: return`);
    a call under a nested `if` or loop may never run."""
    for stmt in branch:
        if isinstance(stmt, _COMPOUND):
            if any(isinstance(n, ast.Return | ast.Raise) for n in ast.walk(stmt)):
                return False
            continue
        if _calls(stmt, name, tested):
            return True
    return False


def _names(source: str) -> set[str]:
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _calls_itself(text: str, name: str, line: int) -> bool:
    """Whether the function's lines call its name after its header (a text test first)."""
    span = function_span(text, name, line)
    if span is None:
        return False
    lines = lines_of(text)[span[0] + 1 : span[1]]
    return any(called_in(line, name) for line in lines)


def _other_branch(function: ast.FunctionDef, line: int, holds: bool) -> list[ast.stmt] | None:
    """The statements run when the `if` test at `line` comes out the other way."""
    for node in ast.walk(function):
        if isinstance(node, ast.If) and node.lineno == line:
            return node.orelse if holds else node.body
    return None


def _calls(stmt: ast.stmt, name: str, tested: set[str]) -> bool:
    """Whether the statement calls `name` (or `self.name`), not in a nested definition,
    passing none of the names the way out changes (`get_style(default)` when the way out
    gives `default` a value checks the new value: that may well pass)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        stack.extend(ast.iter_child_nodes(node))
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        itself = (isinstance(func, ast.Name) and func.id == name) or (
            isinstance(func, ast.Attribute)
            and func.attr == name
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
        )
        if itself and not tested & _passed(node):
            return True
    return False


def _passed(call: ast.Call) -> set[str]:
    values = [*call.args, *(k.value for k in call.keywords)]
    return {n.id for v in values for n in ast.walk(v) if isinstance(n, ast.Name)}
