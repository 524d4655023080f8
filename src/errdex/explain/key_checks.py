"""Whether a configuration key's value a way out sets meets a check of its own: the same
function raising under `self.<key> == value` (vllm's profiler: `profiler: "torch"` gets past
"torch_profiler_activities is only applicable when profiler is set to 'torch'", then meets
"torch_profiler_dir must be set when profiler is 'torch'").

Not where the site's own branch goes on to set the key to that very value (`logger.warning(
"method `%s` is deprecated and replaced with mtp.", ...)` then `self.method = "mtp"`): the
program meets those checks with the value either way, so giving it at once adds none."""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, statements_after
from errdex.explain.knob_actions import KnobAction
from errdex.linked_facts import own_key


def key_checked(action: KnobAction, facts: Facts) -> bool:
    """Whether the action sets a configuration class's own key to a value the site's
    function raises on elsewhere (see `value_checked`)."""
    knob = next((k for k in facts.knobs if k.name == action.knob and k.json_key), None)
    if knob is None or not own_key(knob.json_key, knob.via) or action.keyword is None:
        return False
    try:
        given = ast.literal_eval(action.keyword)
    except (ValueError, SyntaxError, RecursionError):
        return False
    if not isinstance(given, dict):
        return False
    function = facts.site_function()
    line = facts.stored.site.line
    return any(
        value_checked(function, str(k), v) and not assigned_after(function, line, str(k), v)
        for k, v in given.items()
    )


def assigned_after(function: ast.FunctionDef | None, line: int, key: str, value: object) -> bool:
    """Whether a statement after the call at `line`, in the same block, sets `<x>.key` (or
    `key`) to the constant `value`."""
    rest = statements_after(function, line) if function is not None else None
    return rest is not None and any(_sets(statement, key, value) for statement in rest)


def _sets(stmt: ast.stmt, key: str, value: object) -> bool:
    if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant)):
        return False
    if stmt.value.value != value or type(stmt.value.value) is not type(value):
        return False
    return any(
        (isinstance(t, ast.Attribute) and t.attr == key)
        or (isinstance(t, ast.Name) and t.id == key)
        for t in stmt.targets
    )


def value_checked(function: ast.FunctionDef | None, key: str, value: object) -> bool:
    """Whether an `if` of `function` that raises tests `<x>.key == value` (or `key ==
    value`), alone or in an `and`: the value the way out sets leads into that raise."""
    if function is None:
        return False
    for node in walk(function):
        if not isinstance(node, ast.If):
            continue
        if not any(isinstance(n, ast.Raise) for stmt in node.body for n in walk(stmt)):
            continue
        tests = (
            node.test.values
            if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And)
            else [node.test]
        )
        if any(_equals(test, key, value) for test in tests):
            return True
    return False


def _equals(test: ast.expr, key: str, value: object) -> bool:
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
    ):
        return False
    left = test.left
    named = (isinstance(left, ast.Attribute) and left.attr == key) or (
        isinstance(left, ast.Name) and left.id == key
    )
    return named and test.comparators[0].value == value
