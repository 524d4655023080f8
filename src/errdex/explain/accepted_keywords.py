"""The keywords a function taking `**kwargs` accepts, when it refuses every other name.

`def __init__(self, url="", **kwargs)` that loops over `kwargs` and raises when a key is
`not in allowed` (a dict, set, list or tuple of names written in the function or its
module) refuses a keyword the user passed. Its way out is a keyword among those names, not
"pass an empty value for `kwargs`" (which drops every keyword the user meant to give, said
after it): "Pass `URL` only keywords it accepts: `scheme`, `username`, ...".
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.explain.user_data import callable_by_user
from errdex.link.expression_texts import parse_expression

_MAX_SHOWN = 16  # names listed before "and N more"
_MAKERS = frozenset({"frozenset", "set", "tuple", "list"})


def accepted_keywords_solution(facts: Facts, conditions: list[ConditionView]) -> Solution | None:
    """The keywords to keep to, or None."""
    tests = [(c, pair) for c in conditions if (pair := _name_not_in(c.text)) is not None]
    if not tests:
        return None  # before reading the function: most pages stop here
    function = facts.site_function()
    if function is None or function.args.kwarg is None or not callable_by_user(facts):
        return None
    kwargs = function.args.kwarg.arg
    for condition, (key, allowed) in tests:
        if not _loops_over_keys(function, kwargs, key, facts.stored.site.line):
            continue
        names = _names(allowed, function, facts)
        if not names:
            continue
        shown = ", ".join(code(n) for n in names[:_MAX_SHOWN])
        more = len(names) - _MAX_SHOWN
        shown += f" and {more} more" if more > 0 else ""
        callee = code(facts.stored.site.function.removesuffix(".__init__"))
        text = (
            f"Pass {callee} only keywords it accepts: {shown} (the check at line "
            f"{condition.line} refuses any other name)."
        )
        return Solution(text=text, condition=condition.text, kind="input")
    return None


def _name_not_in(text: str) -> tuple[str, str] | None:
    """(`key`, `allowed`) of `key not in allowed`, or None."""
    if " not in " not in text:
        return None
    node = parse_expression(text)
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    key, allowed = node.left, node.comparators[0]
    if isinstance(node.ops[0], ast.NotIn) and isinstance(key, ast.Name):
        return (key.id, allowed.id) if isinstance(allowed, ast.Name) else None
    return None


def _loops_over_keys(function: ast.AST, kwargs: str, key: str, line: int) -> bool:
    """Whether `key` is the key a `for` around `line` takes from `kwargs` (itself, its
    `.keys()` or `.items()`)."""
    for node in walk(function):
        if not isinstance(node, ast.For) or not node.lineno <= line <= (node.end_lineno or 0):
            continue
        source = node.iter
        if isinstance(source, ast.Call) and not source.args and not source.keywords:
            method = source.func
            if isinstance(method, ast.Attribute) and method.attr in ("keys", "items"):
                source = method.value
        if not (isinstance(source, ast.Name) and source.id == kwargs):
            continue
        target = node.target
        if isinstance(target, ast.Tuple) and target.elts:
            target = target.elts[0]
        if isinstance(target, ast.Name) and target.id == key:
            return True
    return False


def _names(name: str, function: ast.AST, facts: Facts) -> list[str]:
    """The strings a literal assigned to `name` once (in the function, else at the module's
    top level) holds: a dict's keys, a set's, list's or tuple's items."""
    tree = facts.source_tree()
    for scope in (function, tree):
        if scope is None:
            continue
        nodes = walk(scope) if scope is function else getattr(scope, "body", [])
        values = [
            n.value
            for n in nodes
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
        ]
        if len(values) == 1:
            return _strings(values[0])
        if values:
            return []  # assigned more than once: not one closed set
    return []


def _strings(value: ast.expr) -> list[str]:
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in _MAKERS
        and len(value.args) == 1
    ):
        value = value.args[0]  # `frozenset({...})`, `tuple([...])`
    items = value.keys if isinstance(value, ast.Dict) else getattr(value, "elts", None)
    if not isinstance(value, ast.Dict | ast.Set | ast.List | ast.Tuple) or not items:
        return []
    names = [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
    return names if len(names) == len(items) else []
