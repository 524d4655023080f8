"""Ways out of a count of the keywords given: "give at most one of `json`, `regex`, ...".

`StructuredOutputsParams.__post_init__` counts its fields given, `count = sum([self.json is
not None, self.regex is not None, ...])`, and raises `if count > 1`. The condition reads a
local, so the input rules found nothing to say, and the page called it the program's state.
Each counted value is a keyword of the user's call (an argument of the public function
that raises, or a field of a class whose fields are its keywords, `declared_fields`): the
way out is how many of them to give, by the compared number.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.declared_fields import declared_keyword
from errdex.explain.inputs import public_name
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.extract.shapes import is_not_none
from errdex.facts import ConditionKind

__all__ = ["counted_solution"]

_MAX_SHOWN = 8
# `count > 1`, `not count`, `sum([...]) != 1`: a name or a sum compared with a whole number
_COUNTED = re.compile(r"(?:not \w+|(?:\w+|sum\(.*\)) (?:>|>=|<|==|!=) \d+)$", re.S)


def counted_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Give `C` at most one of `a`, `b`, `c`", for a check of how many of the user's
    keywords were given, or None."""
    checks = [c for c in conditions if c.kind in (ConditionKind.IF, ConditionKind.ELIF)]
    if not checks or _COUNTED.match(checks[-1].text) is None:
        return None  # most pages: no count compared with a number
    check = checks[-1]
    try:
        test = ast.parse(check.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    compared = _compared(test)
    if compared is None:
        return None
    counted, how = compared
    call = _sum_of(counted, facts, check.line)
    if call is None:
        return None
    named = _keywords(call, facts)
    if named is None:
        return None
    owner, keywords = named
    shown = ", ".join(code(k) for k in keywords[:_MAX_SHOWN])
    return Solution(
        text=(
            f"Give {code(owner)} {how} of {shown}: the check at line {check.line} counts "
            f"those given (not None) and fails otherwise."
        ),
        condition=check.text,
        kind="input",
    )


def _compared(test: ast.expr) -> tuple[ast.expr, str] | None:
    """(what is counted, how many to give) of `count > 1`, `count < 1`, `count != 1`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand, "one"
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    right = test.comparators[0]
    if not (isinstance(right, ast.Constant) and type(right.value) is int):
        return None
    ways = {
        (ast.Gt, 1): "at most one",
        (ast.GtE, 2): "at most one",
        (ast.Lt, 1): "one",
        (ast.Eq, 0): "one",
        (ast.NotEq, 1): "exactly one",
    }
    how = ways.get((type(test.ops[0]), right.value))
    return (test.left, how) if how is not None else None


def _sum_of(counted: ast.expr, facts: Facts, line: int) -> ast.Call | None:
    """The `sum(...)` counted: the expression itself, or the one a local of the site's
    function was last assigned before `line`."""
    if isinstance(counted, ast.Call) and _is_sum(counted):
        return counted
    if not isinstance(counted, ast.Name) or f"{counted.id} = sum(" not in (facts.source_text or ""):
        return None  # (the text first: the function is walked only when it may sum)
    function = facts.site_function()
    found = None
    for node in walk(function) if function is not None else ():
        if not (isinstance(node, ast.Assign) and node.lineno < line):
            continue
        if any(isinstance(t, ast.Name) and t.id == counted.id for t in node.targets):
            if found is not None:
                return None  # assigned twice: which one holds is not sure
            found = node.value
    return found if isinstance(found, ast.Call) and _is_sum(found) else None


def _is_sum(node: ast.Call) -> bool:
    return (
        isinstance(node.func, ast.Name)
        and node.func.id == "sum"
        and len(node.args) == 1
        and not node.keywords
    )


def _keywords(call: ast.Call, facts: Facts) -> tuple[str, list[str]] | None:
    """(the call the user writes, the keywords counted) when every counted item is `x is
    not None` (or `bool(x)`) of a keyword of that call."""
    items = call.args[0]
    if not isinstance(items, ast.List | ast.Tuple) or len(items.elts) < 2:
        return None
    function = facts.stored.site.function
    owner = function.rpartition(".")[0]
    params = set(facts.read.params) if public_name(function) else set()
    given = [is_not_none(item) for item in items.elts]
    if all(isinstance(v, ast.Name) and v.id in params for v in given):
        return function.removesuffix(".__init__"), [v.id for v in given]  # type: ignore[union-attr]
    out: list[str] = []
    for value in given:
        if not (
            isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Name)
            and value.value.id == "self"
            and owner
        ):
            return None
        keyword = declared_keyword(facts, owner, value.attr)
        if keyword is None:
            return None
        out.append(keyword)
    return owner, out
