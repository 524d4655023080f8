"""Whether a configuration key's value a way out sets meets a check of its own: the same
function raising under `self.<key> == value` (vllm's profiler: `profiler: "torch"` gets past
"torch_profiler_activities is only applicable when profiler is set to 'torch'", then meets
"torch_profiler_dir must be set when profiler is 'torch'")."""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
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
    return any(value_checked(facts.site_function(), str(k), v) for k, v in given.items())


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
