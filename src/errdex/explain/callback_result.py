"""The callable a user hands a class, when a check tests the type of what it returned.

`MockTransport(handler)` keeps `self.handler = handler`; `handle_request` calls it
(`response = self.handler(request)`) and raises when `response` is not a `Response` (an
`async def` handler returns a coroutine). The names the check reads are locals, so the
input rules find no argument; the way out is the callable the user passed, returning what
the check wants: "Pass `MockTransport` a `handler` whose return value passes the check at
line 22, so that `response` is an instance of `Response` (...)". Only for a class the
package hands to users (`state_gated.users_call`) that keeps the callable as it was given
(not a weak reference to an object, or a wrapper).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.explain.state_gated import users_call
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression


def callback_result_solution(
    facts: Facts, conditions: list[ConditionView], words: Callable[[ConditionView], str]
) -> Solution | None:
    """The way out through the callable the constructor took, or None; `words` puts a
    condition negated in words."""
    owner, _, _ = facts.stored.site.function.rpartition(".")
    if not owner or "." in owner or not facts.read.init_params:
        return None
    called = _called_results(facts)
    if not called or not users_call(facts):
        return None
    for condition in reversed(conditions):
        if condition.kind == ConditionKind.EARLY_EXIT:
            continue
        local = _type_checked(condition.text)
        if local is None or local not in called:
            continue
        param, value, line = called[local]
        if not _kept_as_given(facts.top_class(owner), param):
            continue  # a weak reference, a wrapper: not the callable the user wrote
        return Solution(
            text=(
                f"Pass {code(owner)} a {code(param)} whose return value passes the check at "
                f"line {condition.line}, so that {words(condition)} ({code(local)} is what "
                f"{code(value)} returns, line {line})."
            ),
            condition=condition.text,
            kind="input",
        )
    return None


def _type_checked(text: str) -> str | None:
    """`response` of `not isinstance(response, Response)`, or None."""
    node = parse_expression(text)
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return None
    call = node.operand
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return None
    if call.func.id != "isinstance" or len(call.args) != 2:
        return None
    checked = call.args[0]
    return checked.id if isinstance(checked, ast.Name) else None


def _kept_as_given(cls: ast.ClassDef | None, param: str) -> bool:
    """Whether the class's `__init__` keeps its parameter `param` as it is
    (`self.handler = handler`)."""
    if cls is None:
        return False
    for init in cls.body:
        if isinstance(init, ast.FunctionDef) and init.name == "__init__":
            return any(
                isinstance(n, ast.Assign)
                and isinstance(n.value, ast.Name)
                and n.value.id == param
                and any(isinstance(t, ast.Attribute) for t in n.targets)
                for n in walk(init)
            )
    return False


def _called_results(facts: Facts) -> dict[str, tuple[str, str, int]]:
    """Each local bound to `self.<attr>(...)` (awaited or not) where the constructor set
    `attr` from its parameter → (the parameter, the call's text, its line)."""
    init = facts.read.init_params
    found: dict[str, tuple[str, str, int]] = {}
    for binding in facts.bindings:
        if binding.origin != "local" or not binding.line:
            continue
        node = parse_expression(binding.value)
        if isinstance(node, ast.Await):
            node = node.value
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        target = node.func.value
        if isinstance(target, ast.Name) and target.id == "self" and node.func.attr in init:
            found[binding.name] = (init[node.func.attr], binding.value, binding.line)
    return found
