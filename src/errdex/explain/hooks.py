"""Ways out through a hook on the user's type: a `__hook__` the function looks up on the
object it was given and calls, with what the check then tests.

pydantic v1's `field_singleton_schema` reads `modify_schema = getattr(field_type,
'__modify_schema__', None)` and, when the type defines it, calls it with `f_schema`; the
raise "Value not declarable with JSON Schema" comes only when `f_schema` is still empty. A
type that defines `__modify_schema__` fills it: that is the way out. Only a dunder name
that Python itself does not define, read with `getattr(obj, "__x__", ...)` or tested with
`hasattr(obj, "__x__")` before the site, whose call is given a name a condition on the
path tests after it, is taken: a hook the function only inspects is no way out.
"""

from __future__ import annotations

import ast
import builtins
import re
import types

from errdex.ast_walk import walk
from errdex.explain.context import Facts, function_span, lines_of
from errdex.explain.input_nodes import free_names
from errdex.explain.page import Solution
from errdex.explain.plain import code

__all__ = ["hook_solution"]

# dunders Python or typing define on every object, class or alias: not the user's to add
_PYTHON_DUNDERS = frozenset(
    {
        *(
            name
            for kind in (object, type, types.FunctionType, types.ModuleType, types.GeneratorType)
            for name in dir(kind)
        ),
        *(
            name
            for kind in (int, float, complex, str, bytes, list, dict, set)
            for name in dir(kind)
        ),
        *(name for kind in (property, classmethod, BaseException, range) for name in dir(kind)),
        *dir(builtins),
        "__enter__",
        "__exit__",
        "__aenter__",
        "__aexit__",
        "__aiter__",
        "__anext__",
        "__await__",
        "__fspath__",
        "__set_name__",
        "__index__",
        "__missing__",
        "__length_hint__",
        "__getattr__",
        "__copy__",
        "__deepcopy__",
        "__getstate__",
        "__setstate__",
        "__origin__",
        "__args__",
        "__parameters__",
        "__orig_bases__",
        "__annotations__",
        "__dataclass_fields__",
        "__slots__",
        "__file__",
        "__path__",
        "__wrapped__",
        "__version__",
        "__all__",
    }
)


# What a function that calls a hook holds: a `getattr(` or a call of `.__name__(`.
_MAY_CALL_HOOK = re.compile(r"\bgetattr\s*\(|\.\s*(__\w+__)\s*\(")


# What every match of `_MAY_CALL_HOOK` holds besides `getattr`, found by a search for its
# leading `__` (that pattern, led by no literal, is tried at every character of a body: 0.23
# ms a function over the web bench's 298 site functions, 0.01 ms for this test first)
_DUNDER_CALL = re.compile(r"__\s*\(")


def _may_call_hook(body: str) -> bool:
    """Whether the function's text calls `getattr(` or a hook's `.__name__(`."""
    if "getattr" not in body and _DUNDER_CALL.search(body) is None:
        return False
    return any(m.group(1) is None or _is_hook(m.group(1)) for m in _MAY_CALL_HOOK.finditer(body))


def hook_solution(facts: Facts) -> Solution | None:
    """ "Define `__hook__` on your type", when the function calls that hook of the object
    it was given with a value the check tests afterwards."""
    line = facts.stored.site.line
    span = function_span(facts.source_text, facts.stored.site.function.rpartition(".")[2], line)
    if facts.source_text is None or span is None:
        return None
    body = "\n".join(lines_of(facts.source_text)[slice(*span)])
    if not _may_call_hook(body):
        return None  # most functions (`super().__init__(...)` is no hook): not parsed for nothing
    function = facts.site_function()
    if function is None:
        return None
    tested = {(c.line, name) for c in facts.held for name in _names(c.text) if c.line < line}
    params = {a.arg for a in [*function.args.posonlyargs, *function.args.args]}
    for hook, owner, at, given in _hooks(function, line):
        if not owner.isidentifier() or owner in ("self", "cls") or owner[:1].isupper():
            continue  # a class or module of the code itself: not the user's type
        if owner not in params and not _bound_from(function, owner, params):
            continue
        later = sorted(n for (where, n) in tested if where > at and n in given)
        if not later:
            continue
        return Solution(
            text=(
                f"Define {code(hook)} on your type (the {code(owner)} this function was "
                f"given): the function looks it up and calls it with {code(later[0])} "
                f"(line {at}), which the check tests before the error is raised."
            ),
            condition=None,
            kind="input",
        )
    return None


def _hooks(function: ast.FunctionDef, line: int) -> list[tuple[str, str, int, set[str]]]:
    """(hook, the object it is looked up on, the line of its call, the names the call is
    given) for each hook called before `line`."""
    bound: dict[str, tuple[str, str]] = {}  # local name → (hook, owner)
    out: list[tuple[str, str, int, set[str]]] = []
    for node in walk(function):
        if getattr(node, "lineno", line) >= line:
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, looked = node.targets[0], _looked_up(node.value, "getattr")
            if isinstance(target, ast.Name) and looked is not None:
                bound[target.id] = looked
    for node in walk(function):
        if not isinstance(node, ast.Call) or node.lineno >= line:
            continue
        hook = _called_hook(node, bound)
        if hook is None:
            continue
        given = {n for arg in [*node.args, *(k.value for k in node.keywords)] for n in _names(arg)}
        given -= {hook[1]} | set(bound)
        if given:
            out.append((hook[0], hook[1], node.lineno, given))
    return out


def _bound_from(function: ast.FunctionDef, name: str, params: set[str]) -> bool:
    """Whether the function assigns `name` from one of its parameters (`field_type =
    field.type_`)."""
    for node in walk(function):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            root = node.value
            while isinstance(root, ast.Attribute | ast.Subscript):
                root = root.value
            if isinstance(root, ast.Name) and root.id in params:
                return True
    return False


def _called_hook(call: ast.Call, bound: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """The hook a call runs: `hook(...)` of a name bound by `getattr`, `obj.__hook__(...)`,
    or a helper handed that name (`_apply_modify_schema(modify_schema, ...)`)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in bound:
        return bound[func.id]
    if isinstance(func, ast.Attribute) and _is_hook(func.attr):
        owner = _text(func.value)
        return (func.attr, owner) if owner else None
    for arg in call.args:
        if isinstance(arg, ast.Name) and arg.id in bound:
            return bound[arg.id]
    return None


def _looked_up(node: ast.expr, how: str) -> tuple[str, str] | None:
    """`getattr(obj, "__hook__", None)` → ("__hook__", "obj")."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id != how or len(node.args) < 2:
        return None
    name = node.args[1]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return None
    owner = _text(node.args[0])
    if owner is None or not _is_hook(name.value):
        return None
    return name.value, owner


def _is_hook(name: str) -> bool:
    return (
        len(name) > 4
        and name.startswith("__")
        and name.endswith("__")
        and name not in _PYTHON_DUNDERS
    )


def _names(text: str | ast.expr) -> set[str]:
    try:
        node = ast.parse(text, mode="eval").body if isinstance(text, str) else text
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {n.split(".")[0] for n in free_names(node)}


def _text(node: ast.expr) -> str | None:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return None
