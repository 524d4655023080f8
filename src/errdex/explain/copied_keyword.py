"""A deprecated keyword whose value the function copies into its replacement: pass it there.

`BaseModel.json(skip_defaults=...)` warns '"skip_defaults" is deprecated and replaced by
"exclude_unset"', then does `exclude_unset = skip_defaults`. Leaving the deprecated keyword
out silences the warning but drops what it did (the output changes); the way out the message
names is the replacement keyword with the same value, and the copy in the code proves the
two mean the same. So: for a deprecation whose `if` tests a keyword the user passes (a
parameter, or a key the function pops from its `**kwargs`), and whose body assigns that
value unchanged to another parameter the message names (`y = x`, also under a test that
`y` was left unset), the solution passes the value as that parameter, with the call as its
fix. A body that turns the value (`each_item = not whole`) or only uses it is no copy: the
message's own words then stay as they are.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.user_call import call_change
from errdex.facts import ConditionKind

_TESTS = frozenset({ConditionKind.IF, ConditionKind.ELIF})


def copied_keyword_solution(facts: Facts) -> Solution | None:
    """Pass the deprecated keyword's value as the parameter the function copies it into
    (and the message names), or None."""
    site = facts.stored.site
    text = site.message.text if site.message is not None else ""
    function = facts.site_function()
    if function is None or not text:
        return None
    params = set(facts.read.params)
    for condition in reversed(facts.conditions):
        if condition.kind not in _TESTS or not condition.holds:
            continue
        block = _if_at(function, condition.line, site.line)
        if block is None:
            continue
        tested = _tested_name(block.test)
        if tested is None:
            return None  # the innermost test is not on one value: no copy to follow
        keyword = _keyword_of(function, tested, params)
        copied = _copy_of(block, tested, params)
        if keyword is None or copied is None:
            return None
        target, line = copied
        if target == keyword or not re.search(rf"(?<![\w.]){re.escape(target)}(?!\w)", text):
            return None  # the message must name the replacement
        change = call_change(facts, keyword, keyword.upper(), keyword.upper(), keyword=target)
        if change is None:
            return None
        return Solution(
            text=(
                f"Pass your value as {code(target)} in place of {code(keyword)}, as the "
                f"message says: the function copies {code(keyword)} into {code(target)} "
                f"(line {line}), so the call does what it did, without the warning."
            ),
            condition=condition.text,
            kind="input",
            change=change,
        )
    return None


def _if_at(function: ast.AST, line: int, site_line: int) -> ast.If | None:
    """The `if` whose test starts at `line` and whose body holds the site."""
    for node in ast.walk(function):
        if isinstance(node, ast.If) and node.test.lineno == line and node.body:
            last = node.body[-1]
            if node.body[0].lineno <= site_line <= (last.end_lineno or last.lineno):
                return node
    return None


def _tested_name(test: ast.expr) -> str | None:
    """`x is not None`, `x`, `x is not _Unset`: the one name the test is on."""
    if isinstance(test, ast.Name):
        return test.id
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.left, ast.Name)
        and isinstance(test.comparators[0], ast.Constant | ast.Name)
    ):
        return test.left.id
    return None


def _keyword_of(function: ast.AST, name: str, params: set[str]) -> str | None:
    """The keyword a user passes that `name` holds: a parameter itself, or the key popped
    from (or read off) the function's `**kwargs` into it (`x = extra.pop('x', None)`)."""
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    bound = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        and any(isinstance(t, ast.Name) and t.id == name for t in _targets(node))
    ]
    kwargs = function.args.kwarg.arg if function.args.kwarg is not None else None
    starred = {kwargs, function.args.vararg.arg if function.args.vararg else None}
    if name in starred or name in {a.arg for a in function.args.posonlyargs}:
        return None  # `**extra` itself is no keyword: its keys are, each its own
    if name in params:
        return name if not bound else None  # rebound first: the value is no longer the user's
    if kwargs is None or len(bound) != 1 or not isinstance(bound[0], ast.Assign):
        return None
    value = bound[0].value
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in ("pop", "get")
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == kwargs
        and value.args
        and isinstance(value.args[0], ast.Constant)
        and isinstance(value.args[0].value, str)
    ):
        return None
    key = value.args[0].value
    return key if key.isidentifier() else None


def _targets(node: ast.Assign | ast.AugAssign | ast.AnnAssign) -> list[ast.expr]:
    return list(node.targets) if isinstance(node, ast.Assign) else [node.target]


def _copy_of(block: ast.If, name: str, params: set[str]) -> tuple[str, int] | None:
    """`y = name` in the `if`'s body (at any depth, not in its `else`), `y` another
    parameter: the parameter and the line; None unless there is exactly one such copy."""
    found = [
        (node.targets[0].id, node.lineno)
        for statement in block.body
        for node in ast.walk(statement)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Name)
        and node.value.id == name
        and node.targets[0].id in params
    ]
    return found[0] if len(found) == 1 else None
