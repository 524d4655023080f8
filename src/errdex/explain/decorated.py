"""A check of the object a user decorates: their declaration is the way out.

A decorator factory's inner function receives what the user decorates and hands it back,
or what it makes of it (click's `command(...)` returns `decorator(f)`, which builds a
`Command` with `callback=f`; vllm's `register_quantization_config(name)` returns
`_wrapper(quant_config_cls)`, which returns the class). A check there of that object
(`isinstance(f, Command)`, `issubclass(quant_config_cls, QuantizationConfig)`,
`is_instance_method_from_sig(f)`) is of the user's own declaration: no setting decides it,
and nothing is worth reporting. The page says so and offers to change the decorated
function or class, in the check's terms; when the check refuses an object that already is
what the decorator makes (`isinstance(f, Command)` where the decorator returns a
`Command`), the decorator was applied twice (or over another that makes one): apply it once.

Offered when the raise's own test and every other condition on its path read the inner
function's one parameter, the factory is a public function (`registered_name.holder`),
every `return` of the inner function hands back that parameter or what is made of it (a
local, call or nested function reading it), and the inner function says the parameter is a
function or a class (its annotation `Callable`/`type`, a dunder of it read, `issubclass`
or `functools.wraps` of it): not a value a processor or a validator factory hands out
converts (`process(value)`, `validator(v)`), which is the user's data, no declaration.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.ast_walk import walk, walk_scope
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.explain.registered_name import holder, names_read_of
from errdex.extract.shapes import isinstance_of
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["Decorated", "decorated", "decorated_sentence", "decorated_solution"]

_CHECKS = frozenset({ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ASSERT})


@dataclass(frozen=True)
class Decorated:
    """A check of the object the user decorates."""

    call: str  # the public decorator factory: `click.decorators.command`
    param: str  # the inner function's parameter: the decorated object
    condition: ConditionView  # the raise's own test
    made: str | None  # the class the check refuses and the decorator makes, if it is one


def decorated(facts: Facts) -> Decorated | None:
    """The decorated object the raise's own test checks, or None (worked out once a page)."""
    return facts.once("decorated", lambda: _decorated(facts))


def decorated_solution(facts: Facts) -> Solution | None:
    """ "Change the function or class you decorate with `@pkg.deco`: ...", or "Apply
    `@pkg.deco` once ..." for an object already of the class it makes."""
    found = decorated(facts)
    if found is None:
        return None
    deco = code(f"@{found.call}")
    message = facts.stored.site.message
    said = f" (“{message.text}”)" if message is not None else ""
    line = found.condition.line
    if found.made is not None:
        text = (
            f"Apply {deco} once: the check at line {line} fails when the object it is given "
            f"already is a {code(found.made)}, which is what {deco} makes of it (the decorator "
            f"applied twice, or over another that makes a {code(found.made)}){said}."
        )
    else:
        when = found.condition.plain or code(found.condition.text)
        text = (
            f"Change the function or class you decorate with {deco}: the check at line "
            f"{line} fails when {when}{said}."
        )
    return Solution(text=text, condition=found.condition.text, kind="input")


def decorated_sentence(facts: Facts) -> str | None:
    """What "What it means" says of such a check: the object is the user's declaration."""
    found = decorated(facts)
    if found is None:
        return None
    return (
        f"{code(found.param)} is the function or class you decorate with "
        f"{code('@' + found.call)}: the check is of your declaration, not of the program's "
        "own state."
    )


def _decorated(facts: Facts) -> Decorated | None:
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT) or not facts.held:
        return None
    if ".<locals>." not in site.function:
        return None  # the decorator itself, not the function a factory hands out
    if any(c.kind is ConditionKind.EXCEPT for c in facts.conditions):
        return None
    condition = facts.held[-1]
    if condition.kind not in _CHECKS:
        return None
    function = facts.site_function()
    held = holder(facts, function) if function is not None else None
    if held is None:
        return None
    call, outer, inner = held
    positional = [*inner.args.posonlyargs, *inner.args.args]
    if len(positional) != 1 or inner.args.vararg is not None or inner.args.kwonlyargs:
        return None  # a decorator takes the one object it decorates
    param = positional[0].arg
    if any(param not in names_read_of(c.text) for c in facts.held):
        return None  # a guard on something else: not the declaration alone
    if not _declaration(inner, positional[0]):
        return None  # a value the inner function converts (a processor, a validator)
    made = _made_of(inner, param)
    if made is None:
        return None
    return Decorated(call, param, condition, _refused_kind(condition, param, made, outer))


# Calls whose argument is a function or a class: `issubclass(p, X)`, `wraps(p)`.
_OF_DECLARATIONS = frozenset(
    {"issubclass", "wraps", "signature", "getfullargspec", "update_wrapper"}
)
# An annotation of a function or class parameter: `Callable[..., Any]`, `type[_T]`.
_DECLARATION_TYPES = frozenset({"Callable", "type", "Type"})


def _declaration(inner: ast.FunctionDef, param: ast.arg) -> bool:
    """Whether the parameter is a function or a class by the inner function's own word: its
    annotation, a dunder of it read (`f.__name__`, `f.__doc__`), or a call that takes one
    (`issubclass(p, X)`, `functools.wraps(p)`)."""
    if param.annotation is not None and _DECLARATION_TYPES & _names_of(param.annotation):
        return True
    name = param.arg
    for node in walk(inner):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and node.attr.startswith("__")
            and node.attr.endswith("__")
        ):
            return True
        if isinstance(node, ast.Call) and node.args:
            first = node.args[0]
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else None
            callee = node.func.id if isinstance(node.func, ast.Name) else callee
            if callee in _OF_DECLARATIONS and isinstance(first, ast.Name) and first.id == name:
                return True
    return False


def _made_of(inner: ast.FunctionDef, param: str) -> dict[str, ast.expr] | None:
    """The names holding the parameter or what is made of it (each with its value; the
    parameter with none), when every `return` of `inner` hands one back; else None."""
    made: dict[str, ast.expr] = {}
    held = {param}
    grown = True
    while grown:
        grown = False
        for node in walk_scope(inner.body):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if node.name not in held and _reads(node, held):
                    held.add(node.name)
                    grown = True
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if (
                    isinstance(target, ast.Name)
                    and target.id not in held
                    and _reads(node.value, held)
                ):
                    held.add(target.id)
                    made[target.id] = node.value
                    grown = True
    returns = [n for n in walk_scope(inner.body) if isinstance(n, ast.Return)]
    if not returns or any(r.value is None or not _reads(r.value, held) for r in returns):
        return None
    for r in returns:
        if isinstance(r.value, ast.Call):
            made.setdefault("", r.value)
    return made


def _refused_kind(
    condition: ConditionView, param: str, made: dict[str, ast.expr], outer: ast.FunctionDef
) -> str | None:
    """The class `C` of a test `isinstance(param, C)` that holds when the inner function
    returns an instance it builds by calling `C`, or a name the factory sets to `C` or
    defaults to it (`if cls is None: cls = Command`)."""
    test = parse_expression(condition.text)
    refused = isinstance_of(test, param) if test is not None else None
    if not isinstance(refused, ast.Name | ast.Attribute):
        return None
    kind = ast.unparse(refused)
    for value in made.values():
        if isinstance(value, ast.Call) and kind in _callee_names(value.func, outer):
            return kind
    return None


def _callee_names(func: ast.expr, outer: ast.FunctionDef) -> set[str]:
    """The names a callee reads, with what the factory binds each of them to."""
    names = _names_of(func)
    bound: list[ast.expr] = []
    for node in walk_scope(outer.body):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in names for t in node.targets
        ):
            bound.append(node.value)
    arguments = outer.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = dict(zip([a.arg for a in positional][::-1], arguments.defaults[::-1], strict=False))
    defaults |= {
        a.arg: d for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d
    }
    bound.extend(d for n, d in defaults.items() if n in names)
    return names.union(*(_names_of(b) for b in bound))


def _names_of(node: ast.expr) -> set[str]:
    """The names and dotted names an expression reads (`t.Type`, `t`, `Type`, ...)."""
    out: set[str] = set()
    for n in walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.update((ast.unparse(n), n.attr))
    return out


def _reads(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in walk(node))
