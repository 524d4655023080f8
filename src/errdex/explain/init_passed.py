"""Ways out through a constructor's argument that it hands to a private method that checks it.

click's `Argument._parse_decls(decls, expose_value)` raises `if not decls`; no user calls
it. `Parameter.__init__(param_decls, ...)` calls `self._parse_decls(param_decls or (),
expose_value)`, and `Argument.__init__` passes its own `param_decls` on to it: the way out
is the argument of the class the user makes (`Argument(["name"])`, a named
`click.argument("name")`). Followed in the site's file only: the constructor of the site's
class, or of a base class it hands the argument on to as it is. A value passed with a
fallback (`param_decls or ()`) keeps only whether it is empty, so only a test of that
(`not decls`, `decls`) is carried over then.
"""

from __future__ import annotations

import ast
import builtins

from errdex.ast_walk import walk
from errdex.explain.call_binding import given_argument
from errdex.explain.closure_switch import param_doc
from errdex.explain.context import Facts, class_in_file
from errdex.explain.declared_fields import super_init_call
from errdex.explain.entry_input import names_read
from errdex.explain.input_nodes import none_compared
from errdex.explain.item_fields import own_init
from errdex.explain.page import Change, ConditionView, Solution
from errdex.explain.plain import code, plain_condition
from errdex.explain.user_call import exported_constructor, required_arguments
from errdex.extract.conditions import negate
from errdex.extract.setters import rebound
from errdex.facts import Condition, ConditionKind
from errdex.link.expression_texts import parse_expression

_MAX_BASES = 4
_BUILTINS = frozenset(dir(builtins))
_EMPTY_FALLBACKS = ("None", "False", "''", "()", "[]", "{}", "0")


def init_passed_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Pass `param_decls` to `click.Argument` ..." for a check in a private method on
    its own argument, which the class's constructor hands it from the user's; else None."""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    if not owner or "." in owner or not method.startswith("_") or method.startswith("__"):
        return None
    function = facts.site_function()
    made = exported_constructor(facts)
    if function is None or made is None:
        return None
    params = method_params(function)
    for condition in reversed(conditions):
        branch = condition.kind in (ConditionKind.IF, ConditionKind.ELIF) and condition.holds
        if not branch and condition.kind is not ConditionKind.ELSE:
            continue  # an `else:`'s text is the test it holds, negated already
        test = parse_expression(condition.text)
        if test is None:
            continue
        read = names_read(test) - _BUILTINS  # `len(decls) != 1` reads `decls` alone
        if len(read) != 1 or not read <= set(params):
            continue
        param = read.pop()
        if _unset(test, param) is False or _checks_on(conditions, param) != 1:
            continue  # leaving it out gives up what it asks for; one of several checks
        found = constructor_argument(facts, owner, method, param, params.index(param))
        if found is None:
            continue
        init, argument, fallback = found
        if fallback is not None and not _unset(test, param) and not _held_set(facts, param):
            continue  # `x or ()` keeps only whether `x` is empty, unless the path holds it set
        before = fallback or "None"  # the value that meets the check, in the fix
        return _solution(made, init, (argument, before), param, test, condition, facts)
    return None


def method_params(function: ast.FunctionDef) -> list[str]:
    """A method's parameters as its callers pass them: without `self`/`cls`, except in a
    static method, whose first parameter is the first argument."""
    names = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    static = any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list
    )
    return names if static else names[1:]


def _unset(test: ast.expr, param: str) -> bool | None:
    """True for a test that `param` was not given (`not param`, `param is None`: the way
    out is a value), False for one that it was (`param`, `param is not None`: the way out
    would drop it); None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        operand = test.operand
        return True if isinstance(operand, ast.Name) and operand.id == param else None
    if isinstance(test, ast.Name):
        return False if test.id == param else None
    compared = none_compared(test)
    return compared[1] if compared is not None and compared[0] == param else None


def _held_set(facts: Facts, param: str) -> bool:
    """Whether the path holds `param` set (`if not decls: raise` passed): then `x or ()`
    handed it `x` itself, and a test of its length or items is one of `x`'s."""
    for condition in facts.conditions:
        test = parse_expression(condition.text)
        if isinstance(test, ast.Name) and test.id == param:
            return True
    return False


def _checks_on(conditions: list[ConditionView], param: str) -> int:
    """How many of the path's conditions read `param`."""
    count = 0
    for condition in conditions:
        test = parse_expression(condition.text)
        if isinstance(test, ast.Name):
            continue  # that it is set: what `_held_set` reads, no check of its value
        count += test is not None and param in names_read(test)
    return count


def constructor_argument(
    facts: Facts, owner: str, method: str, param: str, position: int
) -> tuple[ast.FunctionDef, str, str | None] | None:
    """(the `__init__` that calls `self.<method>(...)`, its own argument it passes as
    `param`, its fallback if any) along `owner`'s first bases in the file, each
    constructor between handing that argument on as it is; None when not found."""
    name: str | None = owner
    handed: set[str] | None = None  # the arguments the classes below hand on, by name
    for _ in range(_MAX_BASES):
        cls = class_in_file(facts, name) if name else None
        if cls is None:
            return None
        init = own_init(cls)
        if init is not None:
            own = [a.arg for a in [*init.args.posonlyargs, *init.args.args]][1:]
            own += [a.arg for a in init.args.kwonlyargs]
            if handed is not None:
                handed &= set(own)
            passed = _passed(init, method, param, position, own)
            if passed is not None:
                argument, fallback = passed
                if handed is not None and argument not in handed:
                    return None
                return init, argument, fallback
            handed = _handed_on(init, own, handed)
            if not handed:
                return None
        name = _first_base(cls)
    return None


def _passed(
    init: ast.FunctionDef, method: str, param: str, position: int, own: list[str]
) -> tuple[str, str | None] | None:
    """(the constructor's argument it passes to `self.<method>` as `param`, its falsy
    fallback: `()` of `x or ()`), when it passes one it never rebinds."""
    for node in walk(init):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == method
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
        ):
            continue
        value = given_argument(node, param, position)
        fallback = None
        if (
            isinstance(value, ast.BoolOp)
            and isinstance(value.op, ast.Or)
            and len(value.values) == 2
            and ast.unparse(value.values[1]) in _EMPTY_FALLBACKS
        ):
            fallback = ast.unparse(value.values[1])
            value = value.values[0]
        if isinstance(value, ast.Name) and value.id in own and not rebound(init, value.id):
            return value.id, fallback
        return None
    return None


def _handed_on(init: ast.FunctionDef, own: list[str], handed: set[str] | None) -> set[str]:
    """The arguments this constructor hands to `super().__init__(...)` as they are, under
    their own names, in the same positions: of `handed` when the classes below named some."""
    node = super_init_call(init)
    if node is None:
        return set()
    given = {
        a.id
        for index, a in enumerate(node.args)
        if isinstance(a, ast.Name) and index < len(own) and own[index] == a.id
    }
    given |= {
        k.arg
        for k in node.keywords
        if k.arg is not None and isinstance(k.value, ast.Name) and k.value.id == k.arg
    }
    given = {g for g in given if not rebound(init, g)}
    return given if handed is None else given & handed


def _first_base(cls: ast.ClassDef) -> str | None:
    if not cls.bases or not isinstance(cls.bases[0], ast.Name):
        return None
    return cls.bases[0].id


def _solution(
    target: str,
    init: ast.FunctionDef,
    given: tuple[str, str],
    param: str,
    test: ast.expr,
    condition: ConditionView,
    facts: Facts,
) -> Solution:
    """The sentence, with the constructor's docstring of the argument when it has one;
    `given` is the argument and the empty value the check refuses."""
    argument, empty = given
    method = facts.stored.site.function.rpartition(".")[2]
    avoided = ast.unparse(negate(_renamed(test, param, argument)))
    avoided_condition = Condition(
        test=avoided, kind=condition.kind, holds=True, line=condition.line, text=avoided
    )
    words = plain_condition(avoided_condition) or code(avoided)
    text = (
        f"Pass {code(argument)} to {code(target)} so that {words}: its constructor hands it "
        f"to {code(method)} as {code(param)}, which raises here otherwise."
    )
    documented = param_doc(init, argument) or _class_param_doc(facts, target, argument)
    if documented:
        text += f" Its docstring: “{documented}”"
    change = None
    if _unset(test, param):  # the way out is a value of the user's: named in the fix
        change = Change(
            form="call",
            target=target,
            argument=argument,
            before=empty,
            after=argument.upper(),
            required=required_arguments(facts, argument, constructor=True) or (),
            constructed=True,
        )
    return Solution(text=text, condition=condition.text, kind="input", change=change)


def _renamed(test: ast.expr, param: str, argument: str) -> ast.expr:
    copy = ast.parse(ast.unparse(test), mode="eval").body
    for node in walk(copy):
        if isinstance(node, ast.Name) and node.id == param:
            node.id = argument
    return copy


def _class_param_doc(facts: Facts, target: str, argument: str) -> str | None:
    """The `:param argument:` line of the class's docstring or a base's, in the file."""
    name: str | None = target.rpartition(".")[2]
    for _ in range(_MAX_BASES):
        cls = class_in_file(facts, name) if name else None
        if cls is None:
            return None
        found = param_doc(cls, argument)
        if found:
            return found
        name = _first_base(cls)
    return None
