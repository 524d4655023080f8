"""A descriptor's `__get__` refusing an access by where it is made: on the class, or on an
instance.

pydantic's `ClassAttribute.__get__(self, instance, owner)` raises "'x' attribute of 'Model'
is class-only" when `instance is not None`. No user passes `instance`: Python's attribute
lookup calls `__get__` with the instance for `obj.x` and None for `Model.x` (the descriptor
protocol). So the way out is where the attribute is read, not the argument: "Read the
attribute on the class (`Class.attribute`), not on an instance" (or, for a check of `is
None`, on an instance, not on the class). Only when the raise's own conditions are that
one test of the parameter after `self` and nothing else (no `try`, no other conjunct):
another test says the access alone does not decide it.
"""

from __future__ import annotations

from errdex.explain.context import Facts
from errdex.explain.input_nodes import none_compared
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

_KINDS = frozenset({SiteKind.RAISE, SiteKind.ASSERT})
_ON_CLASS = (
    "Read the attribute on the class (`Class.attribute`), not on an instance "
    "(`obj.attribute`): Python calls {hook} with {param} None only when the attribute is "
    "read on the class"
)
_ON_INSTANCE = (
    "Read the attribute on an instance (`obj.attribute`), not on the class "
    "(`Class.attribute`): Python calls {hook} with {param} None when the attribute is read "
    "on the class"
)


def descriptor_access_solution(facts: Facts) -> Solution | None:
    """ "Read the attribute on the class ..." for a `__get__` that raises on the
    one test of its instance parameter; else None."""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    if method != "__get__" or not owner or site.kind not in _KINDS:
        return None
    params = [p for p in (facts.read.params if facts.read else ()) if p != "self"]
    if len(params) != 2:
        return None  # `__get__(self, instance, owner)`: the protocol's own shape
    param = params[0]
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None
    held = facts.held
    if len(held) != 1:
        return None
    node = parse_expression(held[0].text)
    test = none_compared(node) if node is not None else None
    if test is None or test[0] != param:
        return None
    hook = code(f"{owner.rpartition('.')[2]}.__get__")
    words = _ON_INSTANCE if test[1] else _ON_CLASS
    text = words.format(hook=hook, param=code(param))
    return Solution(
        text=f"{text}, and the check at line {site.line} fails when {code(held[0].text)}.",
        condition=held[0].text,
        kind="input",
    )
