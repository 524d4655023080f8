"""An `assert` that only narrows what a call just returned: no branch around it is a way out.

`cpu_platform_cls_qualname = cpu_platform_plugin()` then `assert cpu_platform_cls_qualname
is not None` (vllm's `resolve_current_platform_cls_qualname`, under `if
envs.VLLM_TARGET_DEVICE == "cpu":`) checks the called function's own promise: that it gives
a value on this path. It asks nothing of the input. Taking another branch of a guard around
it (another target device) undoes what the user chose and avoids nothing they did wrong: if
such an assert fails, the program broke its own contract. So the ways out of the guards
around it are not offered; a setting or argument the assert's own test reads still is (it
is no bare `x is not None` of a call's result then). `assert x` may test a count or a
flag, and is not read so.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.facts import ConditionKind, SiteKind

# how many lines a call assigned just before the assert may span
_JUST_BEFORE = 3


def narrows_call_result(facts: Facts) -> bool:
    """Whether the site is a bare `assert x is not None` of a local that the statement
    just before assigned a call's result (`assert x` may test a count or a flag: not
    read so)."""
    site = facts.stored.site
    if site.kind != SiteKind.ASSERT or site.message is not None:
        return False
    asserted = [c for c in facts.conditions if c.kind == ConditionKind.ASSERT]
    if not asserted:
        return False
    results = {
        b.name
        for b in facts.bindings
        if b.origin == "local"
        and b.line is not None
        and 0 < site.line - b.line <= _JUST_BEFORE
        and _is_call(b.value)
    }
    return all(_narrowed(c) in results for c in asserted)


def kept_conditions(conditions: list[ConditionView], facts: Facts) -> list[ConditionView]:
    """The conditions a way out may change: only the assert's own when it narrows a call's
    result."""
    if not narrows_call_result(facts):
        return conditions
    return [c for c in conditions if c.kind == ConditionKind.ASSERT]


def _is_call(source: str) -> bool:
    try:
        node = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    return isinstance(node, ast.Call)


def _narrowed(condition: ConditionView) -> str | None:
    """The name an assert's test narrows: `x is not None` (`x is None` as held)."""
    try:
        node = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is | ast.IsNot)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return node.left.id if isinstance(node.left, ast.Name) else None
    return None
