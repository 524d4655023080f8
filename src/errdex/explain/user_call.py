"""How a user calls the function that raises: by the public path of its class or function.

A constructor (`Class.__init__`), or a method whose check reads what the constructor set,
is called as the class itself (`httpx.AsyncClient(...)`); another method on an instance of
its class (`console.print_json(...)`); a module function by its own path. A method of a
nested class, or a function no public module reaches, has no call a user writes as such.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.page import Change

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def user_call(facts: Facts, constructor: bool = False) -> tuple[str, str | None] | None:
    """(the public path of the class or function, the method called on an instance or
    None for the class or function itself); `constructor` asks for the class's call."""
    public = facts.stored.public_path()
    function = facts.stored.site.function
    depth = function.count(".")
    if public is None or depth > 1:
        return None
    if depth == 0:
        return public, None
    method = function.rsplit(".", 1)[-1]
    return public.rsplit(".", 1)[0], None if constructor or method == "__init__" else method


def call_change(
    facts: Facts, argument: str, before: str | None, after: str | None, keyword: str | None = None
) -> Change | None:
    """The change of one argument of the user's call of the site's function (None when no
    public path reaches it), with the arguments the call must give besides; with `keyword`,
    the value moves to that keyword."""
    call = user_call(facts)
    if call is None:
        return None
    target, method = call
    return Change(
        form="call",
        target=target,
        method=method,
        argument=argument,
        before=before,
        after=after,
        keyword=keyword,
        required=required_arguments(facts, argument) or (),
    )


def required_arguments(
    facts: Facts, besides: str, constructor: bool = False
) -> tuple[str, ...] | None:
    """The arguments a call must give besides `besides`, as source with the user's value
    named: `url=URL`, or `URL` for a positional-only parameter. Of the site's function, or
    with `constructor` of its class's `__init__`; None when that signature was not read."""
    read = facts.read
    names = read.init_required if constructor else read.required
    if names is None:
        return None
    positional = () if constructor else read.positional
    return tuple(
        (name.upper() if name in positional else f"{name}={name.upper()}")
        for name in names
        if name != besides
    )


def method_arguments(method: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The arguments a call of another method of the class must give, written as
    `required_arguments` writes them (`key=KEY`, `KEY` for a positional-only parameter):
    the method's read from its `def`, its own object (`self`) being the one it is called on."""
    args = method.args
    positional = [*args.posonlyargs, *args.args][1:]
    required = positional[: len(positional) - len(args.defaults)]
    keywords = [a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    bare = {a.arg for a in args.posonlyargs}
    return [
        (a.arg.upper() if a.arg in bare else f"{a.arg}={a.arg.upper()}")
        for a in [*required, *keywords]
    ]


def suggested_call(suggested: str, facts: Facts) -> Change | None:
    """The call a message suggests instead (`Did you mean print_json(data={json!r})?`), as
    a change of the user's call: the value they gave one parameter, passed as another
    keyword of the same function."""
    marks: dict[str, str] = {}

    def mark(match: re.Match[str]) -> str:
        name = f"_errdex_value_{len(marks)}"
        marks[name] = re.sub(r"(?:![rsa])?(?::[^{}]*)?$", "", match.group(1))
        return name

    try:
        node = ast.parse(_PLACEHOLDER.sub(mark, suggested), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    function = facts.stored.site.function.rsplit(".", 1)[-1]
    if not (isinstance(node, ast.Call) and not node.args and len(node.keywords) == 1):
        return None
    called = node.func.attr if isinstance(node.func, ast.Attribute) else None
    if isinstance(node.func, ast.Name):
        called = node.func.id
    given = node.keywords[0]
    value = given.value
    if called != function or given.arg is None or not isinstance(value, ast.Name):
        return None
    param = marks.get(value.id)
    read = facts.read
    if param is None or param == given.arg or param not in read.params:
        return None
    if param in read.positional:
        return None
    return call_change(facts, param, param.upper(), param.upper(), keyword=given.arg)


def exported_constructor(facts: Facts) -> str | None:
    """The public path of the site's class (`click.Option` for `click.core.Option`) when
    the package exports it at a path of its own: a class its users make. Every class of a
    package whose modules are all public has a path, but only the ones it re-exports are
    its API."""
    stored = facts.stored
    if not stored.public or stored.public == f"{stored.module}.{stored.site.function}":
        return None
    call = user_call(facts, constructor=True)
    # a method called on an instance (`call[1]`) is no constructor call
    return call[0] if call is not None and call[1] is None else None
