"""What the hook method of the user's object returned, refused: make the hook return what
the call takes.

rich's `Console.render(renderable)` calls the object's own `__rich_console__(self, options)`
(`render_iterable = renderable.__rich_console__(self, _options)`) and hands the result to
`iter(render_iterable)` under a `try`; the `except TypeError` raises "object ... is not
renderable". The method is the user's: a class of theirs that joins the package's protocol
by defining it. The way out is in that method, returning what the call takes (an iterable,
for `iter`), not in an argument or a setting. Offered only where the `try` hands a builtin
that converts or walks a value (`iter`, `len`, `list`, ...) one local the function assigns
from a call of a protocol method on its own parameter (a name `__x__` no builtin type has:
the package's own, not Python's), the clause catches `TypeError`, and the function is one a
user calls.
"""

from __future__ import annotations

import ast
import builtins

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.parsed_value import user_try
from errdex.explain.plain import caught_names, code
from errdex.explain.user_data import local_sources
from errdex.facts import SiteKind

__all__ = ["hook_result_solution", "protocol_name"]

# Builtins that take a value of one kind and fail with `TypeError` on any other: what the
# hook must return for each.
_TAKES = {
    "iter": "an iterable (a list, or a generator: `yield` each item)",
    "list": "an iterable (a list, or a generator: `yield` each item)",
    "tuple": "an iterable (a list, or a generator: `yield` each item)",
    "len": "an object with a length (a list, a tuple, a string)",
    "dict": "a mapping, or an iterable of key-value pairs",
}
# Every special name Python itself gives a meaning: those of the builtin types, and the
# protocols no builtin type defines (`__enter__`, `__get__`, `__set_name__`, ...).
_PYTHON_DUNDERS = frozenset(
    name
    for kind in vars(builtins).values()
    if isinstance(kind, type)
    for name in dir(kind)
    if name.startswith("__")
) | frozenset(
    {"__enter__", "__exit__", "__aenter__", "__aexit__", "__get__", "__set__", "__delete__"}
    | {"__set_name__", "__await__", "__aiter__", "__anext__", "__fspath__", "__index__"}
    | {"__length_hint__", "__missing__", "__reversed__", "__call__", "__next__", "__iter__"}
    | {"__class_getitem__", "__mro_entries__", "__instancecheck__", "__subclasscheck__"}
)


def hook_result_solution(facts: Facts) -> Solution | None:
    """ "Make the `__rich_console__` method of the object you pass as `renderable` return
    an iterable ..."; else None."""
    site = facts.stored.site
    found = user_try(facts) if site.kind == SiteKind.RAISE else None
    if found is None or "TypeError" not in caught_names(found.clause.text):
        return None
    function, statement, _, clause = found
    taken = _taken_local(statement)
    if taken is None:
        return None
    builtin, local, call = taken
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args)} - {"self", "cls"}
    hooks = [
        value
        for value in local_sources(function).get(local, [])
        if isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id in params
        and protocol_name(value.func.attr)
    ]
    if len(hooks) != 1:
        return None
    hook = hooks[0]
    assert isinstance(hook.func, ast.Attribute) and isinstance(hook.func.value, ast.Name)
    method, param = hook.func.attr, hook.func.value.id
    callee = code(site.function.removesuffix(".__init__"))
    text = (
        f"Make the {code(method)} method of the object you pass as {code(param)} return "
        f"{_TAKES[builtin]}: {callee} calls it (line {hook.lineno}) and hands what it "
        f"returned to {code(call)} (the `try` at line {statement.body[0].lineno}), which "
        f"refused it."
    )
    return Solution(text=text, condition=clause.text, kind="input")


def _taken_local(statement: ast.Try | ast.TryStar) -> tuple[str, str, str] | None:
    """(the builtin, the local, the call as written) of the one `iter(local)` the `try`
    makes; None when it makes any other call: that one may have failed instead."""
    calls = [n for part in statement.body for n in walk(part) if isinstance(n, ast.Call)]
    if len(calls) != 1:
        return None
    call = calls[0]
    if not (
        isinstance(call.func, ast.Name)
        and call.func.id in _TAKES
        and len(call.args) == 1
        and not call.keywords
        and isinstance(call.args[0], ast.Name)
    ):
        return None
    return call.func.id, call.args[0].id, ast.unparse(call)


def protocol_name(name: str) -> bool:
    """A special name the package gives a meaning (`__rich_console__`), not Python: a
    method of the user's object the package calls."""
    return (
        name.startswith("__")
        and name.endswith("__")
        and len(name) > 4
        and name not in _PYTHON_DUNDERS
    )
