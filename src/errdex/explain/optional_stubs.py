"""An optional package the path needs already: no way out to offer by installing it.

vllm's muse_spark model imports `rmsnorm_sigmoid_gate as o_norm_sigmoid_gate` and
`supports_rmsnorm_sigmoid_gate` from flashinfer in a `try`; its `except` sets the first
to None and defines the second as a stub returning False. `assert o_norm_sigmoid_gate is
not None` sits under `if self.cute_o_norm_gate:`, which `__init__` set from
`supports_o_norm_sigmoid_gate(...)`: without flashinfer the branch is never taken, so the
assert only narrows the type, and "install flashinfer" is no way out of it. Read from the
site's file: a condition on the path that is (or has as an `and` part) a call of such a
stub, or an attribute the file assigns from one. An `assert` of the optional name under
any earlier guard is taken as such narrowing too (`_has_local_multicast_support` returning
False when the import failed, several calls away): a way out left unsaid rather than one
that cannot matter.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.environment import all_of
from errdex.facts import ConditionKind

__all__ = ["needed_already"]


def needed_already(facts: Facts, behind: str) -> bool:
    """Whether a condition the path holds is true only with the package `behind` stands
    for: it calls a stub its failed import defined, or reads what such a call set."""
    site = facts.stored.site
    asserted = [c for c in facts.held if c.line == site.line and c.kind == ConditionKind.ASSERT]
    on_name = any(behind in all_names(c.text) for c in asserted)
    if on_name and any(c.line < site.line for c in facts.held):
        # `assert x is not None` under guards on the program's state narrows the type for
        # a path those guards took only with the package (a helper returned False without
        # it): the assert is no check of the environment
        return True
    tree = facts.source_tree()
    if tree is None:
        return False
    stubs = _stubs(tree, behind)
    if not stubs:
        return False
    attrs = _set_from(tree, stubs)
    for condition in facts.held:
        if not condition.holds:
            continue
        try:
            node = ast.parse(condition.text, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        for part in all_of(node):
            if isinstance(part, ast.Call) and _called(part) in stubs:
                return True
            if ast.unparse(part) in attrs:
                return True
    return False


def all_names(text: str) -> set[str]:
    try:
        return {n.id for n in walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)}
    except (SyntaxError, ValueError, RecursionError):
        return set()


def _stubs(tree: ast.Module, behind: str) -> set[str]:
    """The functions a module-level `except` defines beside binding `behind` to None."""
    out: set[str] = set()
    for stmt in walk(tree):
        if not isinstance(stmt, ast.Try):
            continue
        for handler in stmt.handlers:
            bound = {
                t.id
                for s in handler.body
                if isinstance(s, ast.Assign)
                for t in s.targets
                if isinstance(t, ast.Name)
            }
            if behind in bound:
                out |= {s.name for s in handler.body if isinstance(s, ast.FunctionDef)}
    return out


def _set_from(tree: ast.Module, stubs: set[str]) -> set[str]:
    """`self.x` for each `self.x = ...` whose value calls a stub (`a and stub(...)`)."""
    out: set[str] = set()
    for node in walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
            continue
        value = node.value
        parts = (
            value.values
            if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.And)
            else [value]
        )
        if any(isinstance(p, ast.Call) and _called(p) in stubs for p in parts):
            out.add(ast.unparse(target))
    return out


def _called(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else None
