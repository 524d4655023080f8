"""An error another call returned, raised as it is: the user's input failed that call.

`values, fields_set, validation_error = validate_model(cls, obj)` then `if
validation_error: raise validation_error` (pydantic v1's `BaseModel.from_orm`): what is
raised is the verdict of a call on the argument the user passed. The way out is that
argument: the raised error's own message says which of its values are wrong.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.facts import SiteKind


def returned_error_solution(facts: Facts) -> Solution | None:
    """ "The `obj` you pass to `BaseModel.from_orm` does not pass `validate_model(cls, obj)`
    ...", for a public function that raises a local a call on its argument returned."""
    stored = facts.stored
    site = stored.site
    if site.kind != SiteKind.RAISE or site.exception is not None:
        return None
    if stored.public_path() is None or not public_name(site.function):
        return None
    found = facts.site_function()
    if found is None:
        return None
    raised = next(
        (
            n.exc.id
            for n in walk(found)
            if isinstance(n, ast.Raise) and n.lineno == site.line and isinstance(n.exc, ast.Name)
        ),
        None,
    )
    if raised is None:
        return None
    params = _params(found, method="." in site.function)
    for node in walk(found):
        if not (isinstance(node, ast.Assign) and node.lineno < site.line):
            continue
        if not isinstance(node.value, ast.Call) or raised not in _bound(node.targets):
            continue
        given = [
            n.id
            for a in [*node.value.args, *(k.value for k in node.value.keywords)]
            for n in walk(a)
            if isinstance(n, ast.Name) and n.id in params
        ]
        if not given:
            return None
        argument = params[given[0]]
        call = ast.unparse(node.value)
        callee = site.function.removesuffix(".__init__")
        return Solution(
            text=(
                f"Correct the {argument} you pass to {code(callee)}: "
                f"{code(call)} (line {node.lineno}) checks "
                f"{'them' if argument.endswith('`)') else 'it'} and returns the error raised "
                f"here, whose message lists the values it refused."
            ),
            condition=raised,
            kind="input",
        )
    return None


def _params(function: ast.FunctionDef, method: bool) -> dict[str, str]:
    """Each parameter a caller passes (not a method's own `self`), and how the page names
    it: `obj` as such, `**data` as the keyword arguments."""
    arguments = function.args
    named = [*arguments.posonlyargs, *arguments.args][1 if method else 0 :]
    found = {a.arg: code(a.arg) for a in [*named, *arguments.kwonlyargs]}
    if arguments.vararg is not None:
        found[arguments.vararg.arg] = f"positional arguments ({code('*' + arguments.vararg.arg)})"
    if arguments.kwarg is not None:
        found[arguments.kwarg.arg] = f"keyword arguments ({code('**' + arguments.kwarg.arg)})"
    return found


def _bound(targets: list[ast.expr]) -> set[str]:
    """The names an assignment binds, through tuple unpacking."""
    names = set()
    for target in targets:
        for node in walk(target):
            if isinstance(node, ast.Name):
                names.add(node.id)
    return names
