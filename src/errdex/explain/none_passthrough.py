"""No "pass None" way out of a function that hands None back for None.

A function whose work is a value it is given (`coerce(key, value)`, `parse_float_alpha(value)`,
`normalize_value(x)`) often starts with `if value is None: return None` and raises for a
value it cannot take. "Pass None for the argument `value`" gets past the raise, but only by
giving up the value the user meant to hand over: the call then returns nothing, and the data
(the attribute the user assigned, the alpha of the colour they wrote) is lost. That is no
way out; the page says nothing rather than that.

Only a function that returns something made from the value on its other paths (a
converter), or never returns on them (a base's hook that refuses whatever a subclass does
not take), is such a pass-through. A check that returns nothing, or the value as it came,
on every other path (`if salt is None: return`, then checks, then `return salt`) validates
an optional value the user may leave out, and keeps its way out.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk_scope
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression


def passes_none_back(condition: ConditionView, facts: Facts) -> bool:
    """Whether `condition` is the early exit `P is not None` of a parameter `P` that the
    site's function returns None (or `P` itself) for, in a function that otherwise returns
    a value made from its input or nothing at all (above)."""
    if condition.kind is not ConditionKind.EARLY_EXIT:
        return False
    param = _not_none_of(parse_expression(condition.text))
    if param is None or param not in facts.read.params:
        return False
    function = facts.site_function()
    if function is None:
        return False
    exit_ = _none_exit(function, param, condition.line)
    if exit_ is None:
        return False
    others = [r for r in _returns(function) if r is not exit_]
    if any(r.value is not None and _made(r.value, param) for r in others):
        return True  # a converter: None in, None out, a value made from it otherwise
    # no other return: every other path raises (a hook's refusing default) when the body
    # cannot fall off its end
    return not others and bool(function.body) and isinstance(function.body[-1], ast.Raise)


def _not_none_of(node: ast.expr | None) -> str | None:
    """`P` of `P is not None`."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not (isinstance(node.ops[0], ast.IsNot) and _is_none(node.comparators[0])):
        return None
    return node.left.id if isinstance(node.left, ast.Name) else None


def _none_exit(function: ast.FunctionDef, param: str, line: int) -> ast.Return | None:
    """The `return` / `return None` / `return P` that is the whole body of the function's
    own `if P is None:` at `line`, with no `else`."""
    for node in function.body:
        if not (isinstance(node, ast.If) and node.lineno == line and not node.orelse):
            continue
        test = node.test
        is_none = (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is)
            and isinstance(test.left, ast.Name)
            and test.left.id == param
            and _is_none(test.comparators[0])
        )
        if not is_none or len(node.body) != 1 or not isinstance(node.body[0], ast.Return):
            return None
        found = node.body[0]
        value = found.value
        handed = isinstance(value, ast.Name) and value.id == param
        return found if value is None or _is_none(value) or handed else None
    return None


def _returns(function: ast.FunctionDef) -> list[ast.Return]:
    """The function's own `return` statements (not those of a function nested in it)."""
    return [n for n in walk_scope(function.body) if isinstance(n, ast.Return)]


def _made(value: ast.expr, param: str) -> bool:
    """Whether a returned value is something made, not None and not the parameter as it
    came (`return salt` after checking it: a validator of an optional value, whose None is
    the value left out)."""
    return not _is_none(value) and not (isinstance(value, ast.Name) and value.id == param)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
