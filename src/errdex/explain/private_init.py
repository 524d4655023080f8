"""Ways out of a constructor that always raises: the class methods that make the object.

SQLAlchemy's `BooleanClauseList.__init__` raises `NotImplementedError("BooleanClauseList
has a private constructor")` with no condition: the class is made by its class methods
(`BooleanClauseList.and_(...)`, `.or_(...)`), which build the instance with
`cls.__new__`. When the site is the whole of a public class's `__init__` (nothing guards
it) and the class, in the site's file, defines public class methods, the way out is to
call one of those instead of the class.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, class_in_file
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.plain import code, your_values
from errdex.explain.user_call import user_call

_MAX_NAMED = 4


def private_init_solution(facts: Facts) -> Solution | None:
    """ "Make a `C` with `C.and_(...)` or `C.or_(...)`" for an unconditional raise in a
    public class's constructor that has public class methods; else None."""
    site = facts.stored.site
    owner, _, member = site.function.rpartition(".")
    if member != "__init__" or not owner or "." in owner or facts.conditions:
        return None
    init = facts.site_function()
    body = init.body if init is not None else []
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if not (len(body) == 1 and isinstance(body[0], ast.Raise)):
        return None  # a constructor that does something first: not one that always raises
    call = user_call(facts, constructor=True)
    if call is None or call[1] is not None:
        return None
    makers = _class_methods(facts, owner)
    if not makers:
        return None
    target = call[0]
    listed = " or ".join(code(f"{owner}.{m.name}(...)") for m in makers[:_MAX_NAMED])
    text = (
        f"Make your {code(owner)} with its class methods, {listed}, instead of calling "
        f"{code(owner + '(...)')}: its constructor always raises."
    )
    return Solution(text=text, kind="input", fix=_fix(target, owner, makers[0]))


def _fix(target: str, owner: str, maker: ast.FunctionDef) -> ExampleFix:
    module = target.rpartition(".")[0]
    head = f"from {module} import {owner}\n" if module else ""
    args = maker.args
    positional = [a.arg.upper() for a in [*args.posonlyargs, *args.args][1:]]  # cls
    if args.vararg is not None:
        positional.append(f"*{args.vararg.arg.upper()}")
    given = ", ".join(positional)
    values = [p.lstrip("*") for p in positional]
    note = f"Keep the arguments you gave {code(owner)}; {code(maker.name)} takes them."
    if values:
        note += f" {your_values(values)}"
    return ExampleFix(
        before=f"{head}{owner}({given})",
        after=f"{head}{owner}.{maker.name}({given})",
        note=note,
    )


def _class_methods(facts: Facts, owner: str) -> list[ast.FunctionDef]:
    """The class's public `@classmethod`s that make an instance (`cls(...)`,
    `cls.__new__(cls)`, or a class method of its own that does), in the class's order."""
    found = class_in_file(facts, owner)
    methods = [
        m
        for m in (found.body if found is not None else [])
        if isinstance(m, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "classmethod" for d in m.decorator_list)
    ]
    makers = {m.name for m in methods if "__new__" in _cls_calls(m)}
    grown = True
    while grown:  # `and_` → `cls._construct(...)` → `cls.__new__(cls)`
        more = {m.name for m in methods if _cls_calls(m) & makers} - makers
        makers |= more
        grown = bool(more)
    return [m for m in methods if m.name in makers and not m.name.startswith("_")]


def _cls_calls(method: ast.FunctionDef) -> set[str]:
    """The names of the `cls.X(...)` calls a class method makes; `__new__` for `cls(...)`."""
    found = set()
    for node in walk(method):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "cls":
            found.add("__new__")
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "cls"
        ):
            found.add(func.attr)
    return found
