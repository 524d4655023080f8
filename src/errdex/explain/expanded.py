"""A condition with its locals replaced by what they were assigned, for the rules that
look behind a name to the settings its value comes from."""

from __future__ import annotations

import ast
import copy

import msgspec
from msgspec.structs import replace

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.link.expression_texts import parse_expression


class _Inline(ast.NodeTransformer):
    """Each local replaced by the expression assigned; `deep`, that expression's locals in
    turn (on a copy: the values are shared by the page's rules)."""

    def __init__(
        self, values: dict[str, ast.expr], deep: bool = False, inside: frozenset[str] = frozenset()
    ) -> None:
        self.values, self.deep = values, deep
        self.inside = inside  # the locals being replaced: `x = f(x)` is read once

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.values.get(node.id)
        if value is None or node.id in self.inside:
            return node
        if not self.deep:
            return value
        inner = _Inline(self.values, True, self.inside | {node.id})
        replaced: ast.expr = inner.visit(copy.deepcopy(value))
        return replaced


def expanded(condition: ConditionView, facts: Facts) -> ConditionView:
    """The condition with its locals replaced by what they were assigned:
    `has_graphs` becomes `mode != NONE and not config.enforce_eager`."""
    texts: dict[str, str] = facts.memo.setdefault("expanded", {})
    if condition.text not in texts:
        texts[condition.text] = _expanded_text(condition.text, facts)
    text = texts[condition.text]
    if text == condition.text:
        return condition
    return msgspec.structs.replace(condition, text=text, plain=None)


def _expanded_text(text: str, facts: Facts) -> str:
    values = _local_values(facts)
    if not values:
        return text
    try:
        tree = ast.parse(text, mode="eval").body
        return ast.unparse(_Inline(values).visit(tree))
    except (SyntaxError, ValueError, RecursionError):
        return text


def assigned_once(condition: ConditionView, function: ast.FunctionDef) -> ConditionView:
    """The condition with each name the function assigns once, before the test's line, as
    a plain `name = ...` (inside a `try` too, where the extraction keeps no local), replaced
    by what it was assigned: `not match` becomes `not (A.match(v) or B.match(v))`."""
    tree = parse_expression(condition.text)
    if tree is None:
        return condition
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    stored: dict[str, list[ast.AST]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in read:
            stored.setdefault(node.id, []).append(node)
    values: dict[str, ast.expr] = {}
    for node in ast.walk(function):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if (
            isinstance(target, ast.Name)
            and stored.get(target.id) == [target]
            and node.lineno < condition.line
        ):
            values[target.id] = node.value
    params = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    if not values or params & values.keys():
        return condition  # a parameter assigned anew: the test may read either value
    try:
        text = ast.unparse(_Inline(values).visit(copy.deepcopy(tree)))
    except (ValueError, RecursionError):
        return condition
    return condition if text == condition.text else replace(condition, text=text, plain=None)


def deep_expanded(text: str, facts: Facts) -> str:
    """The condition's text with its locals replaced by what they were assigned, and the
    locals those read in turn (`extra = params.extra_args`, then `read_only =
    extra.get("k")`: `params.extra_args.get("k")`), to what the function was given. Not
    for the setting rules, which look behind the nearest local (`expanded`)."""
    texts: dict[str, str] = facts.memo.setdefault("deep_expanded", {})
    if text not in texts:
        texts[text] = _deep_expanded_text(text, facts)
    return texts[text]


def _deep_expanded_text(text: str, facts: Facts) -> str:
    values = _local_values(facts)
    node = parse_expression(text)
    if not values or node is None:
        return text
    try:
        return ast.unparse(_Inline(values, deep=True).visit(copy.deepcopy(node)))
    except (ValueError, RecursionError):
        return text


def _local_values(facts: Facts) -> dict[str, ast.expr]:
    """Each local the function assigns → the expression assigned, parsed once a page
    (read only: an expansion puts the same nodes in the trees it unparses)."""
    if "expanded.values" not in facts.memo:
        values: dict[str, ast.expr] = {}
        for binding in facts.bindings:
            if binding.origin != "local":
                continue
            try:
                values[binding.name] = ast.parse(binding.value, mode="eval").body
            except (SyntaxError, ValueError, RecursionError):
                continue
        facts.memo["expanded.values"] = values
    found: dict[str, ast.expr] = facts.memo["expanded.values"]
    return found


class _InlineOwn(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        if isinstance(node.value, ast.Name):
            return self.values.get(f"{node.value.id}.{node.attr}", node)
        return node


def own_expanded(condition: ConditionView, facts: Facts) -> ConditionView:
    """The condition with each `self.X` the function set to a comparison a setting decides
    (`link.own_tests`) replaced by that comparison: `self.native` becomes `backend in
    NATIVE`. Only for the setting's action: the attribute is no argument of the function."""
    values = {
        b.name: node
        for b in facts.bindings
        if b.origin == "local" and "." in b.name and (node := parse_expression(b.value)) is not None
    }
    if not values:
        return condition
    tree = parse_expression(condition.text)
    if tree is None:
        return condition
    text = ast.unparse(_InlineOwn(values).visit(copy.deepcopy(tree)))
    return condition if text == condition.text else replace(condition, text=text, plain=None)
