"""Ways out of a check on the step of a slice an object is indexed with: a plain slice.

rich's `Text.__getitem__(self, slice)` does `start, stop, step = slice.indices(...)` and
raises `TypeError("slices with step!=1 are not supported")` when `step != 1`. The user
wrote `text[a:b:c]`; the way out is the slice without a step (`text[a:b]`, step 1), when
a step of 1 passes the check. The call is the subscript, on the user's object of the
public class.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import ConditionView, ExampleFix, Solution
from errdex.explain.plain import code, plain_condition
from errdex.explain.user_call import user_call
from errdex.facts import Condition
from errdex.link.expression_texts import parse_expression

_SUBSCRIPTS = frozenset({"__getitem__", "__setitem__", "__delitem__"})
# a comparison of two known values, as `operator` makes it
COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def slice_step_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Index your `Text` with a slice of step 1 (`text[start:stop]`) ..."; else None."""
    site = facts.stored.site
    method = site.function.rpartition(".")[2]
    if method not in _SUBSCRIPTS:
        return None  # most pages: nothing read for nothing
    function = facts.site_function()
    call = user_call(facts)
    if function is None or call is None or call[1] != method:
        return None
    step = _unpacked_step(function, site.line)
    if step is None:
        return None
    for condition in reversed(conditions):
        test = parse_expression(condition.text)
        if test is None:
            continue
        if _holds_for_step_one(test, step[0]) is not False:
            continue
        held = Condition(
            test=condition.test,
            kind=condition.kind,
            holds=True,
            line=condition.line,
            text=condition.text,
        )
        when = condition.plain or plain_condition(held) or code(condition.text)
        target = call[0]
        owner = target.rpartition(".")[2]
        instance = instance_name(owner)
        text = (
            f"Index your {code(owner)} with a slice of step 1, without a third part "
            f"({code(f'{instance}[start:stop]')}): {code(site.function)} takes the step from "
            f"{code(step[1])} (line {step[2]}) and raises here when {when}."
        )
        fix = ExampleFix(
            before=f"{instance}[START:STOP:STEP]",
            after=f"{instance}[START:STOP]",
            note=f"`{instance}` is your {code(owner)} object ({code(target)}); `START`, "
            "`STOP`, `STEP` stand for your own values.",
        )
        return Solution(text=text, condition=condition.text, kind="input", fix=fix)
    return None


def _unpacked_step(function: ast.FunctionDef, line: int) -> tuple[str, str, int] | None:
    """(the step's name, the call, its line) of `start, stop, step = key.indices(...)`
    before `line`, `key` a parameter of the method."""
    params = {a.arg for a in function.args.args[1:]}
    for node in walk(function):
        if not (isinstance(node, ast.Assign) and node.lineno < line and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if not (
            isinstance(target, ast.Tuple)
            and len(target.elts) == 3
            and isinstance(target.elts[2], ast.Name)
            and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "indices"
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id in params
        ):
            continue
        return target.elts[2].id, ast.unparse(value), node.lineno
    return None


def _holds_for_step_one(test: ast.expr, step: str) -> bool | None:
    """Whether `step <op> N` holds for a step of 1; None for any other test."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and test.left.id == step
        and isinstance(test.comparators[0], ast.Constant)
        and type(test.comparators[0].value) is int
    ):
        return None
    compare = COMPARE.get(type(test.ops[0]))
    return None if compare is None else compare(1, test.comparators[0].value)
