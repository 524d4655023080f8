"""Ways out through an argument of the public function whose closure raises.

click's `version_option(version=None, ...)` returns a decorator whose inner `callback`
raises `if version is None`: `version` is read from the call of `version_option` that made
the callback. The user never calls `callback`; they called `version_option`, and giving it
`version=` is the way out. Offered when the check's one name is a parameter of the outer
public module-level function, its default is the value the check refuses (`P is None`
with a None default, `not P` with an empty one), no function between them takes a
parameter of that name, and nothing rebinds it except under a test that it is still
unset (`if version is None and package_name is not None: version = ...`).
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.closure_switch import (
    defaults_of,
    outer_call_solution,
    public_module,
    top_function,
)
from errdex.explain.context import Facts
from errdex.explain.input_nodes import none_compared
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

_EMPTY = frozenset({"None", "False", "''", '""', "()", "[]", "0"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def closure_param_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Pass `version` to `click.decorators.version_option` ..." for a check in a closure
    on an argument of the public function that made it, left at its default; else None."""
    site = facts.stored.site
    outer_name, _, rest = site.function.partition(".<locals>.")
    if not rest or outer_name.startswith("_") or "." in outer_name:
        return None
    if site.kind is not SiteKind.RAISE or any(
        c.kind is ConditionKind.EXCEPT for c in facts.conditions
    ):
        return None  # a switch of whether a caught error goes on hides it, it avoids nothing
    outer = top_function(facts, outer_name)
    module = public_module(facts.stored.file)
    if outer is None or module is None:
        return None
    defaults = defaults_of(outer)
    for condition in conditions:
        if condition.kind not in (ConditionKind.IF, ConditionKind.ELIF) or not condition.holds:
            continue
        node = parse_expression(condition.text)
        if node is None:
            continue
        param = _unset_test(node, defaults)
        if param is None or not _read_from_outer(outer, param, node, site.line):
            continue
        return _solution(f"{module}.{outer.name}", outer, param, defaults[param], condition)
    return None


def _unset_test(node: ast.expr, defaults: dict[str, str]) -> str | None:
    """The parameter `P` of `P is None` (its default None) or `not P` (its default empty):
    a test its default meets."""
    compared = none_compared(node)
    if compared is not None:
        name, unset = compared
        return name if unset and defaults.get(name) == "None" else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        operand = node.operand
        if isinstance(operand, ast.Name) and defaults.get(operand.id) in _EMPTY:
            return operand.id
    return None


def _read_from_outer(outer: ast.FunctionDef, param: str, test: ast.expr, line: int) -> bool:
    """Whether the site's functions read `param` as the outer call gave it: no function
    around the site below `outer` binds a parameter of that name, and every assignment
    to it sits in the body of an `if` whose test holds `test` as a conjunct (it only ever
    fills the unset value)."""
    for node in walk(outer):
        if node is outer or not isinstance(node, _FUNCTIONS):
            continue
        end = node.end_lineno or node.lineno
        if not node.lineno <= line <= end:
            continue
        args = node.args
        own = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if any(a is not None and a.arg == param for a in own):
            return False
    filling: set[int] = set()
    wanted = ast.dump(test)
    for node in walk(outer):
        if isinstance(node, ast.If) and wanted in _conjuncts(node.test):
            filling |= {id(n) for statement in node.body for n in walk(statement)}
    return all(
        id(node) in filling
        for node in walk(outer)
        if isinstance(node, ast.Name) and node.id == param and isinstance(node.ctx, ast.Store)
    )


def _conjuncts(test: ast.expr) -> set[str]:
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else []
    return {ast.dump(p) for p in [test, *parts]}


def _solution(
    target: str, outer: ast.FunctionDef, param: str, default: str, condition: ConditionView
) -> Solution:
    after = "True" if default == "False" else param.upper()
    text = (
        f"Pass {code(param)} to {code(target)}"
        + (f" ({code(param + '=True')})" if after == "True" else "")
        + f": the function it makes reads {code(param)} from that call, and raises here "
        f"when it is left at its default ({code(default)})."
    )
    return outer_call_solution(text, target, outer, param, after, condition)
