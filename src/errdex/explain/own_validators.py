"""A raise on assignment of what the object's own registered validators refused.

pydantic v1's `BaseModel.__setattr__`, with `validate_assignment` on, runs each callable of
`self.__pre_root_validators__` on the object's values with the new one in, and re-raises what
one raises (`except (ValueError, TypeError, AssertionError) as exc: raise ValidationError(...)`),
or collects those errors in a list it raises after the loop. The callables are the
validators the user's class registers: the message is the validator's own, and the way out
is a value those validators accept (or a change of the validator that refuses it). Read for a
site in a `__setattr__` whose raise is in the handler of a `try` around a call of the loop's
variable, over an attribute of `self` (or `self.__class__`) named for validators, or raises
the list such a handler appends to.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code

__all__ = ["own_validators_solution"]


def own_validators_solution(facts: Facts) -> Solution | None:
    """ "Assign a value your class's own validators accept …" for a raise in `__setattr__`
    of what a loop over the object's validators caught; else None."""
    site = facts.stored.site
    owner, _, member = site.function.rpartition(".")
    if member != "__setattr__" or not owner or "." in owner:
        return None
    function = facts.site_function()
    if function is None:
        return None
    raised = next(
        (
            n
            for n in walk(function)
            if isinstance(n, ast.Raise) and n.lineno <= site.line <= (n.end_lineno or n.lineno)
        ),
        None,
    )
    if raised is None:
        return None
    held = {n.id for n in walk(raised) if isinstance(n, ast.Name)}
    for loop in walk(function):
        if not isinstance(loop, ast.For):
            continue
        names = {n.id for n in walk(loop.target) if isinstance(n, ast.Name)}
        source = _validators(loop.iter)
        if source is None:
            continue
        for attempt in walk(loop):
            if not isinstance(attempt, ast.Try) or not _calls(attempt.body, names):
                continue
            for handler in attempt.handlers:
                start, end = handler.lineno, handler.end_lineno or handler.lineno
                inside = start <= site.line <= end
                if inside or held & _appended(handler):
                    return _solution(owner, source)
    return None


def _validators(node: ast.expr) -> str | None:
    """`self.__pre_root_validators__` (or `self.__class__.<name>`) for a name of
    validators; else None."""
    if not isinstance(node, ast.Attribute) or "validators" not in node.attr:
        return None
    holder = node.value
    if isinstance(holder, ast.Name) and holder.id == "self":
        return f"self.{node.attr}"
    if (
        isinstance(holder, ast.Attribute)
        and holder.attr == "__class__"
        and isinstance(holder.value, ast.Name)
        and holder.value.id == "self"
    ):
        return f"self.__class__.{node.attr}"
    return None


def _calls(body: list[ast.stmt], names: set[str]) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names
        for part in body
        for n in walk(part)
    )


def _appended(handler: ast.ExceptHandler) -> set[str]:
    """The lists a handler appends to (`errors.append(...)`)."""
    return {
        n.func.value.id
        for n in walk(handler)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "append"
        and isinstance(n.func.value, ast.Name)
    }


def _solution(owner: str, source: str) -> Solution:
    text = (
        "Assign a value your class's own validators accept, or change the validator that "
        f"refuses it: on assignment {code(owner + '.__setattr__')} runs each of "
        f"{code(source)} (the validators your class registers) on the object's values with "
        "the new one in, and raises what a validator raised as this error; its message is "
        "that validator's own."
    )
    return Solution(text=text, kind="input")
