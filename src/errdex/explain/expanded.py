"""A condition with its locals replaced by what they were assigned, for the rules that
look behind a name to the settings its value comes from."""

from __future__ import annotations

import ast

import msgspec

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView


class _Inline(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.values.get(node.id, node)


def expanded(condition: ConditionView, facts: Facts) -> ConditionView:
    """The condition with its locals replaced by what they were assigned:
    `has_graphs` becomes `mode != NONE and not config.enforce_eager`."""
    values: dict[str, ast.expr] = {}
    for binding in facts.bindings:
        if binding.origin != "local":
            continue
        try:
            values[binding.name] = ast.parse(binding.value, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
    if not values:
        return condition
    try:
        tree = ast.parse(condition.text, mode="eval").body
        text = ast.unparse(_Inline(values).visit(tree))
    except (SyntaxError, ValueError, RecursionError):
        return condition
    if text == condition.text:
        return condition
    return msgspec.structs.replace(condition, text=text, plain=None)
