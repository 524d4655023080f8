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

The field's own validation on assignment is the same way out: `value, error_ =
known_field.validate(value, ...)` then `if error_: raise ValidationError([error_], ...)` in a
`__setattr__` (or a function of `(self, name, value)` named for it, which a dataclass is given
as its `__setattr__`) raises what validating the assigned value against the field's type and
validators returned: the way out is a value the field accepts.
"""

from __future__ import annotations

import ast
import re

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
        return _field_refused(facts) if not owner else None
    function = facts.site_function()
    if function is None:
        return None
    refused = _field_refused(facts)
    if refused is not None:
        return refused
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


def _field_refused(facts: Facts) -> Solution | None:
    """ "Assign the field a value it accepts …" for a raise, in a `__setattr__` or a module's
    function of `(self, name, value)` named for one, under a test of what validating the
    assigned value returned (`value, error_ = field.validate(value, ...)`, `if error_:`)."""
    site = facts.stored.site
    owner, _, member = site.function.rpartition(".")
    if "setattr" not in member or "<locals>" in owner:
        return None
    text = facts.source_text or ""
    if member != "__setattr__" and re.search(rf"__setattr__\W+{member}\b", text) is None:
        return None  # a function of the module no class is handed as its `__setattr__`
    function = facts.site_function()
    if function is None:
        return None
    params = [a.arg for a in function.args.args]
    if len(params) != 3 or params[0] != "self" or function.args.vararg or function.args.kwarg:
        return None
    assigned = params[2]
    for test in walk(function):
        if not isinstance(test, ast.If) or not isinstance(test.test, ast.Name):
            continue
        raise_here = any(
            isinstance(n, ast.Raise) and n.lineno <= site.line <= (n.end_lineno or n.lineno)
            for part in test.body
            for n in walk(part)
        )
        if not raise_here:
            continue
        validated = _validated_by(function, test.test.id, assigned)
        if validated is not None:
            return _field_solution(site.function, member != "__setattr__", validated)
    return None


def _validated_by(
    function: ast.FunctionDef | ast.AsyncFunctionDef, error: str, value: str
) -> ast.Call | None:
    """The call `x.validate(value, ...)` whose result's last item is unpacked into `error`
    (`value, error_ = known_field.validate(value, ...)`); else None."""
    for node in walk(function):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, call = node.targets[0], node.value
        if not isinstance(target, ast.Tuple) or not target.elts:
            continue
        last = target.elts[-1]
        if not isinstance(last, ast.Name) or last.id != error:
            continue
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "validate"
            and call.args
            and isinstance(call.args[0], ast.Name)
            and call.args[0].id == value
        ):
            return call
    return None


def _field_solution(function: str, handed: bool, call: ast.Call) -> Solution:
    shown = ast.unparse(call.func)
    runs = f"{code(function)}, set as the class's `__setattr__`," if handed else code(function)
    text = (
        "Assign the field a value its declared type and its validators accept: on "
        f"assignment {runs} validates the new value with {code(shown + '(...)')} "
        f"(line {call.lineno}) and raises what that returns as this error; its message names "
        "the field and what it refused."
    )
    return Solution(text=text, kind="input")


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
