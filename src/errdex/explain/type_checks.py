"""Checks of one input against a chain of types or values: an if/elif chain that accepts any of
them, merged into the one check a user has to pass."""

from __future__ import annotations

import ast

from errdex.explain.input_nodes import is_call
from errdex.explain.page import ConditionView
from errdex.link.expression_texts import parse_expression


def merged_type_checks(conditions: list[ConditionView]) -> dict[int, ConditionView]:
    """`not isinstance(x, str)` then `not isinstance(x, URL)` (an if/elif chain that
    accepts either), or `x not in {...}` (or `x != "a"`) then `x not in {...}`: the last
    of them as one check of all the types or values, by its line."""
    types: dict[str, list[str]] = {}
    values: dict[str, list[str]] = {}
    last: dict[str, ConditionView] = {}
    for condition in conditions:
        node = parse_expression(condition.text)
        if node is None:
            continue
        members = _not_in_literal(node)
        if members is not None:
            target = f"in:{members[0]}"
            values.setdefault(target, []).extend(members[1])
            last[target] = condition
            continue
        if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            continue
        call = node.operand
        if not (isinstance(call, ast.Call) and is_call(call, "isinstance") and len(call.args) == 2):
            continue
        target = ast.unparse(call.args[0])
        kinds = call.args[1]
        elements = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        types.setdefault(target, []).extend(ast.unparse(e) for e in elements)
        last[target] = condition
    out: dict[int, ConditionView] = {}
    for target, condition in last.items():
        if target.startswith("in:"):
            every = list(dict.fromkeys(values[target]))
            if len(every) == len(set(_not_in_literal_members(condition))):
                continue  # one check: nothing merged
            text = f"{target[3:]} not in ({', '.join(every)},)"
        else:
            every = list(dict.fromkeys(types[target]))
            if len(every) <= 1:
                continue
            text = f"not isinstance({target}, ({', '.join(every)},))"
        out[condition.line] = ConditionView(
            text=text, test=text, kind=condition.kind, holds=True, line=condition.line
        )
    return out


def _not_in_literal(node: ast.expr) -> tuple[str, list[str]] | None:
    """`x not in {"a", "b"}`: (`x`, the members' sources); `x != "a"` as `x not in ("a",)`
    (an if/elif chain of literals that falls through to its `else`)."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    right = node.comparators[0]
    if (
        isinstance(node.ops[0], ast.NotEq)
        and isinstance(right, ast.Constant)
        and isinstance(right.value, str | int | float)
        and not isinstance(right.value, bool)
    ):
        return ast.unparse(node.left), [ast.unparse(right)]
    if not (
        isinstance(node.ops[0], ast.NotIn) and isinstance(right, ast.Set | ast.Tuple | ast.List)
    ):
        return None
    return ast.unparse(node.left), [ast.unparse(e) for e in right.elts]


def _not_in_literal_members(condition: ConditionView) -> list[str]:
    try:
        found = _not_in_literal(ast.parse(condition.text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return []
    return found[1] if found else []
