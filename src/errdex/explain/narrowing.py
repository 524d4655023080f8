"""An `assert` that only narrows what a call just returned: no branch around it is a way out.

`cpu_platform_cls_qualname = cpu_platform_plugin()` then `assert cpu_platform_cls_qualname
is not None` (vllm's `resolve_current_platform_cls_qualname`, under `if
envs.VLLM_TARGET_DEVICE == "cpu":`) checks the called function's own promise: that it gives
a value on this path. It asks nothing of the input. Taking another branch of a guard around
it (another target device) undoes what the user chose and avoids nothing they did wrong: if
such an assert fails, the program broke its own contract. So the ways out of the guards
around it are not offered; a setting or argument the assert's own test reads still is (it
is no bare `x is not None` of a call's result then). Only where the assignment is the
statement just before the assert, in the same block, and calls a function: a lookup with a
default (`getattr(config, "rope_parameters", None)`, `d.get(key)`) reads data the user
gives, and `assert x` may test a count or a flag.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts, statement_pairs
from errdex.explain.page import ConditionView
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

# calls that look a value up in data, with a default: no promise of the program's own
_LOOKUPS = frozenset({"getattr", "get", "pop", "getenv", "setdefault", "next"})


def narrows_call_result(facts: Facts) -> bool:
    """Whether the site is a bare `assert x is not None` whose statement just before, in
    the same block, assigns `x` a call of a function (not a lookup with a default:
    `getattr(config, "rope_parameters", None)`, `d.get(key)` read data the user gives)."""
    site = facts.stored.site
    if site.kind != SiteKind.ASSERT or site.message is not None:
        return False
    asserted = [c for c in facts.conditions if c.kind == ConditionKind.ASSERT]
    if len(asserted) != 1:
        return False
    name = _narrowed(asserted[0])
    function = facts.site_function() if name is not None else None
    if function is None:
        return False
    for before, statement in statement_pairs(function):
        if isinstance(statement, ast.Assert) and statement.lineno == site.line:
            return _assigns_call(before, name)
    return False


def _assigns_call(statement: ast.stmt, name: str | None) -> bool:
    """`name = f(...)`, `f` no lookup with a default (`getattr`, `.get`, `next`, ...)."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    else:
        return False
    if not (isinstance(target, ast.Name) and target.id == name and isinstance(value, ast.Call)):
        return False
    called = value.func
    called_name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
    return called_name not in _LOOKUPS


def kept_conditions(conditions: list[ConditionView], facts: Facts) -> list[ConditionView]:
    """The conditions a way out may change: only the assert's own when it narrows a call's
    result."""
    if not narrows_call_result(facts):
        return conditions
    return [c for c in conditions if c.kind == ConditionKind.ASSERT]


def _narrowed(condition: ConditionView) -> str | None:
    """The name an assert's test narrows: `x is not None` (`x is None` as held)."""
    node = parse_expression(condition.text)
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is | ast.IsNot)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return node.left.id if isinstance(node.left, ast.Name) else None
    return None
