"""No "pass None" way out of a function that hands None back for None.

A function whose work is a value it is given (`coerce(key, value)`, `parse_float_alpha(value)`,
`normalize_value(x)`) often starts with `if value is None: return None` and raises for a
value it cannot take. "Pass None for the argument `value`" gets past the raise, but only by
giving up the value the user meant to hand over: the call then returns nothing, and the data
(the attribute the user assigned, the alpha of the colour they wrote) is lost. That is no
way out; the page says nothing rather than that.

Only a function that returns something made from the value on its other paths (a
converter), or never returns on them and is a default its subclasses replace (a base's hook
that refuses whatever a subclass does not take), is such a pass-through. A check that
returns nothing, or the value as it came, on every other path (`if salt is None: return`,
then checks, then `return salt`) validates an optional value the user may leave out, and
keeps its way out; so does a check that asks for None (`if option is None: return`, then a
raise: the option is refused, leave it out), and a parameter whose default is None.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.ast_walk import walk_scope
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.extract.param_defaults import rebound_names
from errdex.extract.shapes import is_none, tested_absent
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

_MAX_WALKED = 50  # classes of the file walked below the site's


def passes_none_back(condition: ConditionView, facts: Facts) -> bool:
    """Whether `condition` is the early exit `P is not None` of a parameter `P` that the
    site's function returns None (or `P` itself) for, in a function that otherwise returns
    a value made from its input or nothing at all (above)."""
    if condition.kind is not ConditionKind.EARLY_EXIT:
        return False
    param = _not_none_of(parse_expression(condition.text))
    if param is None or param not in facts.read.params:
        return False
    if facts.read.defaults.get(param) == "None":
        return False  # left out by default: None is no value handed over
    function = facts.site_function()
    if function is None:
        return False
    exit_ = _none_exit(function, param, condition.line)
    if exit_ is None:
        return False
    others = [r for r in _returns(function) if r is not exit_]
    made = _made_from(function, param)
    if any(r.value is not None and made(r.value) for r in others):
        return True  # a converter: None in, None out, a value made from it otherwise
    # no other return: every other path raises. A default its subclasses replace refuses
    # what they do not take; any other such function asks for None (`if option is None:
    # return`, then refuses the option), and passing None is its one way out.
    if others or not function.body or not isinstance(function.body[-1], ast.Raise):
        return False
    return facts.stored.overrides is not None or _replaced_below(facts)


def _replaced_below(facts: Facts) -> bool:
    """Whether a class of the site's file below the site's class (through its subclasses
    there) defines the site's method again: `MutableDict.coerce` of `MutableBase.coerce`.
    (The link's `overrides` takes only an unguarded raise, not one after an early exit.)"""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    if not owner or owner != site.class_name:
        return False
    seen = {owner}
    below = [owner]
    while below and len(seen) < _MAX_WALKED:
        for name in facts.subclass_names(below.pop()):
            if name in seen:
                continue
            seen.add(name)
            found = facts.top_class(name)
            if found is not None and any(
                isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == method
                for n in found.body
            ):
                return True
            below.append(name)
    return False


def _not_none_of(node: ast.expr | None) -> str | None:
    """`P` of `P is not None`."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not (isinstance(node.ops[0], ast.IsNot) and is_none(node.comparators[0])):
        return None
    return node.left.id if isinstance(node.left, ast.Name) else None


def _none_exit(function: ast.FunctionDef, param: str, line: int) -> ast.Return | None:
    """The `return` / `return None` / `return P` that is the whole body of the function's
    own `if P is None:` at `line`, with no `else`."""
    for node in function.body:
        if not (isinstance(node, ast.If) and node.lineno == line and not node.orelse):
            continue
        absent = tested_absent(node.test)
        tested = isinstance(node.test, ast.Compare) and _named(absent, param)
        if not tested or len(node.body) != 1 or not isinstance(node.body[0], ast.Return):
            return None
        found = node.body[0]
        value = found.value
        return found if value is None or is_none(value) or _named(value, param) else None
    return None


def _returns(function: ast.FunctionDef) -> list[ast.Return]:
    """The function's own `return` statements (not those of a function nested in it)."""
    return [n for n in walk_scope(function.body) if isinstance(n, ast.Return)]


def _made_from(function: ast.FunctionDef, param: str) -> Callable[[ast.expr], bool]:
    """Whether a returned value is one the function made or picked for its input: any
    value but None, a constant (`return True`: a check's answer), the function's own object
    (`self`, `cls`) and the parameter as it came (`return salt` after checking it: a
    validator of an optional value, whose None is the value left out), unless the function
    binds the parameter again (`value = float(value)`). A value picked by a loop over the
    choices (`return enum_value`) is made too, though it names no parameter: a test that the
    value names the parameter would keep "Pass None" for SQLAlchemy's
    parse_user_argument_for_enum, which hands back the member it found, never None."""
    rebound = param in rebound_names(function)

    def made(value: ast.expr) -> bool:
        if _named(value, param):
            return rebound
        if isinstance(value, ast.Constant):
            return False
        return not (isinstance(value, ast.Name) and value.id in ("self", "cls"))

    return made


def _named(node: ast.expr | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
