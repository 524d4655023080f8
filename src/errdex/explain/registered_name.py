"""Ways out of a check that refuses a second registration under one name.

A registry the package keeps at module or class level (`op_registry = {}`, `cls._registry`)
is filled by a public call the user makes with the name to register under:
`Factory.register_connector(name, ...)` raises `if name in cls._registry` and then stores
`cls._registry[name] = ...`; a decorator factory's inner function does the same with the
factory's argument (`Op.register(name)` returns `decorator(op_cls)`, which asserts `name not
in op_registry` before `op_registry[name] = op_cls`). The name checked is the user's own
declaration, not the program's state: the way out is another name in that call, one no
earlier registration took (the package's own included).

Offered when the raise's own test is `K in R`, the function stores `R[K] = ...` after it,
`R` is a module-level name, a class's attribute or one of `cls` in a class method (never an
object's own: `self.x`, a local), and `K` is a parameter of the public function the user
calls (the factory, for a decorator it returns), or a local set once from one with a
fallback for when it is left out (`name if name is not None else f.__name__`, the
decorated function's name). Not when the fallback is the name of the class the call is made
on (`cls.__name__`): the name then says which registered thing the new one stands in for,
and another name would only register it where nothing looks it up.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.closure_switch import public_module
from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.outline import defining
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

_CHECKS = frozenset({ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ASSERT})
_BUILTINS = frozenset(dir(builtins))


@dataclass(frozen=True)
class Registration:
    """A check refusing a name already registered, and the user's call that gives it."""

    call: str  # the public call the user makes: `pkg.ops.Op.register`
    param: str  # its parameter giving the name
    key: str  # the name as the check reads it
    registry: str  # what holds the names registered
    condition: ConditionView  # the check
    fallback: str | None  # the name when `param` is left out, as source
    later: tuple[int, ...] = ()  # lines of the function's later raising checks of the name


def registration(facts: Facts) -> Registration | None:
    """The registration the raise's own test refuses, or None (worked out once a page)."""
    return facts.once("registration", lambda: _registration(facts))


def registration_solution(facts: Facts) -> Solution | None:
    """ "Register under a name not taken yet: pass `Op.register` a name ... as its `name`".
    The message is not quoted: its own advice (override it another way) stays a way out."""
    found = registration(facts)
    if found is None:
        return None
    left_out = (
        f"; left out, the name is {code(found.fallback)}" if found.fallback is not None else ""
    )
    if found.later:
        lines = ", ".join(str(n) for n in found.later)
        checks = "check at line" if len(found.later) == 1 else "checks at lines"
        left_out += f"; the new name must then pass the {checks} {lines} as well"
    return Solution(
        text=(
            f"Register under a name not taken yet: pass {code(found.call)} a name "
            f"{code(found.registry)} does not hold as its {code(found.param)}{left_out} (the "
            f"check at line {found.condition.line} refuses a second registration under one "
            "name; a name the package registers itself is taken as well)."
        ),
        condition=found.condition.text,
        kind="input",
    )


def registration_sentence(facts: Facts) -> str | None:
    """What "What it means" says of such a check: the name is the user's declaration."""
    found = registration(facts)
    if found is None:
        return None
    key, call, param = code(found.key), code(found.call), code(found.param)
    given = (
        f"{key}, the argument of your call of {call}, is the name it registers under"
        if found.key == found.param
        else f"{key} is the name your call of {call} registers under (its {param}, or "
        f"{code(found.fallback or '')} when that is left out)"
    )
    return (
        f"{given}: the check is of that declaration, refusing a name "
        f"{code(found.registry)} holds already, not of the program's own state."
    )


def _registration(facts: Facts) -> Registration | None:
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT) or not facts.held:
        return None
    if any(c.kind is ConditionKind.EXCEPT for c in facts.conditions):
        return None
    condition = facts.held[-1]  # the raise's own test
    if condition.kind not in _CHECKS:
        return None
    test = parse_expression(condition.text)
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In)
        and isinstance(test.left, ast.Name)
    ):
        return None
    registry = test.comparators[0]
    function = facts.site_function()
    if function is None or not _stored_after(function, registry, test.left, condition.line):
        return None
    held = holder(facts, function)
    if held is None:
        return None
    call, user_function, inner = held
    key = test.left.id
    param, fallback = _given_name(user_function, inner, key, condition.line)
    if param is None or not _shared(registry, user_function, inner):
        return None
    if any({key, param} & names_read_of(c.text) for c in facts.held[:-1]):
        return None  # an earlier guard takes only some names: another may not pass it
    return Registration(
        call=call,
        param=param,
        key=key,
        registry=ast.unparse(registry),
        condition=condition,
        fallback=fallback,
        later=_later_checks(inner, key, condition.line),
    )


def names_read_of(text: str) -> set[str]:
    """The names a condition's text reads (none when it does not parse)."""
    node = parse_expression(text)
    return names_read(node) if node is not None else set()


def _later_checks(function: ast.FunctionDef, key: str, line: int) -> tuple[int, ...]:
    """The lines of the `if`s after `line` whose test reads `key` and whose body raises."""
    return tuple(
        node.lineno
        for node in walk(function)
        if isinstance(node, ast.If)
        and node.lineno > line
        and key in names_read(node.test)
        and any(isinstance(n, ast.Raise) for s in node.body for n in walk(s))
    )


def holder(
    facts: Facts, inner: ast.FunctionDef
) -> tuple[str, ast.FunctionDef, ast.FunctionDef] | None:
    """(the public path the user calls, its function, the site's function as read there):
    the site's function itself, or the public function or method that made it and hands it
    out (a decorator factory)."""
    stored = facts.stored
    outer_name, _, rest = stored.site.function.partition(".<locals>.")
    if not rest:
        path = stored.public_path()
        if path is None or any(p.startswith("_") for p in stored.site.function.split(".")):
            return None
        # read with its decorators (`classmethod`), where the file defines it
        user = _outer(facts, stored.site.function) or inner
        return path.removesuffix(".__init__"), user, user
    if "." in rest or any(p.startswith("_") for p in outer_name.split(".")):
        return None  # a closure in a closure; a private maker no user calls
    module = public_module(stored.file)
    outer = _outer(facts, outer_name)
    made = _handed_out(outer, inner) if outer is not None else None
    if module is None or outer is None or made is None:
        return None
    return f"{module}.{outer_name}", outer, made


def _outer(facts: Facts, name: str) -> ast.FunctionDef | None:
    """The module-level function `name`, or the method `Class.method` of a top-level class,
    that holds the site's line (with its decorators: not a `typing.overload` stub)."""
    line = facts.stored.site.line
    owner, _, method = name.rpartition(".")
    if "." in owner:
        return None
    if owner:
        found = facts.top_class(owner)
        body = found.body if found is not None else []
    else:
        tree = facts.top_module(defining(method))
        body = tree.body if tree is not None else []
    for node in body:
        if (
            isinstance(node, ast.FunctionDef)
            and node.name == method
            and node.lineno <= line <= (node.end_lineno or node.lineno)
        ):
            return node
    return None


def _handed_out(outer: ast.FunctionDef, inner: ast.FunctionDef) -> ast.FunctionDef | None:
    """`inner` as `outer` defines it in its own body (or an `if` of it), when `outer`
    returns it or what calling it gives (a decorator it makes); None for a function defined
    deeper, or one only stored somewhere."""
    blocks = [*outer.body, *(s for statement in outer.body for s in _direct_defs(statement))]
    made = next(
        (
            s
            for s in blocks
            if isinstance(s, ast.FunctionDef) and (s.name, s.lineno) == (inner.name, inner.lineno)
        ),
        None,
    )
    returned = any(
        isinstance(node, ast.Return)
        and node.value is not None
        and any(isinstance(n, ast.Name) and n.id == inner.name for n in walk(node.value))
        for node in walk(outer)
    )
    return made if returned else None


def _direct_defs(statement: ast.stmt) -> list[ast.stmt]:
    """The statements of the blocks of `statement` (an `if` around a `def`), one level."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return []
    found: list[ast.stmt] = []
    for name in ("body", "orelse"):
        block = getattr(statement, name, None)
        if isinstance(block, list):
            found.extend(block)
    return found


def _stored_after(function: ast.FunctionDef, registry: ast.expr, key: ast.Name, line: int) -> bool:
    """Whether `function` stores `registry[key] = ...` after `line` (it registers)."""
    wanted, name = ast.dump(registry), key.id
    for node in walk(function):
        if not isinstance(node, ast.Assign) or node.lineno <= line:
            continue
        for target in node.targets:
            if (
                isinstance(target, ast.Subscript)
                and ast.dump(target.value) == wanted
                and isinstance(target.slice, ast.Name)
                and target.slice.id == name
            ):
                return True
    return False


def _shared(registry: ast.expr, user: ast.FunctionDef, inner: ast.FunctionDef) -> bool:
    """Whether the registry is kept by the module or a class: rooted at a name neither
    function binds (a module-level one), or at `cls` of a class method; not at `self` or
    a local (an object's own table, one the call was handed)."""
    node = registry
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    if not isinstance(node, ast.Name) or node.id in _BUILTINS or node.id == "self":
        return False
    if node.id == "cls":
        return any(
            isinstance(d, ast.Name) and d.id == "classmethod" for d in user.decorator_list
        ) and not _binds(inner, "cls", inner is not user)
    return not _binds(user, node.id, params=True) and not _binds(inner, node.id, params=True)


def _given_name(
    user: ast.FunctionDef, inner: ast.FunctionDef, key: str, line: int
) -> tuple[str | None, str | None]:
    """(the parameter of the user's call the checked name is, what it is when that is left
    out, or None), or (None, None) when the name comes from anything else."""
    params = _params(user)
    nested = inner is not user
    if key in params and not _assigned(user, key) and not (nested and key in _params(inner)):
        return key, None
    if key in params or (nested and key in _params(inner)):
        return None, None
    assigned = [
        n for n in walk(inner) if isinstance(n, ast.Assign | ast.AnnAssign) and _assigns(n, key)
    ]
    if len(assigned) != 1 or assigned[0].lineno >= line:
        return None, None
    value = assigned[0].value
    found = _fallback(value) if value is not None else None
    if found is None:
        return None, None
    param, fallback = found
    if names_read_of(fallback) & {"cls", "self"}:
        return None, None  # named after the class it is called on: a key of what it replaces
    if param not in params or _assigned(user, param) or (nested and param in _params(inner)):
        return None, None
    return param, fallback


def _fallback(value: ast.expr) -> tuple[str, str] | None:
    """(P, X) of `X if P is None else P`, `P if P is not None else X`, `P if P else X`,
    `P or X`."""
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and len(value.values) == 2:
        first, other = value.values
        if isinstance(first, ast.Name):
            return first.id, ast.unparse(other)
        return None
    if not isinstance(value, ast.IfExp):
        return None
    test, body, orelse = value.test, value.body, value.orelse
    if isinstance(test, ast.Name) and isinstance(body, ast.Name) and body.id == test.id:
        return test.id, ast.unparse(orelse)
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return None
    name = test.left.id
    if isinstance(test.ops[0], ast.Is) and isinstance(orelse, ast.Name) and orelse.id == name:
        return name, ast.unparse(body)
    if isinstance(test.ops[0], ast.IsNot) and isinstance(body, ast.Name) and body.id == name:
        return name, ast.unparse(orelse)
    return None


def _assigns(node: ast.AST, name: str) -> bool:
    """Whether `node` is an assignment of the single name `name`."""
    if isinstance(node, ast.Assign):
        return len(node.targets) == 1 and _is_name(node.targets[0], name)
    return (
        isinstance(node, ast.AnnAssign) and node.value is not None and _is_name(node.target, name)
    )


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _params(function: ast.FunctionDef) -> set[str]:
    args = function.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return {a.arg for a in every if a is not None} - {"self", "cls"}


def _assigned(function: ast.FunctionDef, name: str) -> bool:
    """Whether anything in `function` (its nested functions too) stores `name`."""
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in walk(function)
    )


def _binds(function: ast.FunctionDef, name: str, params: bool) -> bool:
    """Whether `function` binds `name`: stores it, or (with `params`) takes it."""
    if params:
        args = function.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if any(a is not None and a.arg == name for a in every):
            return True
    return _assigned(function, name)
