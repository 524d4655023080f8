"""A base class no user constructs: its call is no example fix.

A class whose methods only raise `NotImplementedError` (click's `Parameter`: its
`_parse_decls` and `add_to_parser`) is made through a subclass that defines them (`Option`,
`Argument`); `Parameter(nargs=1)` does not run. A way out through one of its constructor's
arguments is given to the subclass the user makes, which takes it on: the page names those
subclasses and draws no call of the base.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts, may_name
from errdex.explain.plain import code


def subclasses_note(target: str, facts: Facts) -> str | None:
    """ " (`Parameter` is a base class: you make one of its subclasses, `Option` or
    `Argument`, and give it the argument there)" when `target`'s class, in the site's
    file, leaves methods to its subclasses; None when it is a class a user constructs."""
    name = target.rpartition(".")[2]
    text = facts.class_text(name)
    if text is None or not may_name(text, "NotImplementedError"):
        return None  # no method of it can raise that: the class is not parsed
    base = facts.top_class(name)
    if base is None:
        return None
    left = {m.name for m in _methods(base) if _only_raises_not_implemented(m)}
    if not left:
        return None
    made = [
        c.name
        for c in map(facts.top_class, facts.subclass_names(name))
        if c is not None
        and any(_last(b) == name for b in c.bases)
        and left <= {m.name for m in _methods(c)}
    ]
    if not made:
        return f"{code(name)} is a base class: the argument goes to the subclass you make."
    listed = " or ".join(code(m) for m in made[:4])
    return (
        f"{code(name)} is a base class: you make one of its subclasses, {listed}, "
        f"and give the argument to it."
    )


def _methods(cls: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [m for m in cls.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)]


def _only_raises_not_implemented(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = method.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return (
        len(body) == 1
        and isinstance(body[0], ast.Raise)
        and body[0].exc is not None
        and _last(body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc)
        == "NotImplementedError"
    )


def _last(node: ast.expr) -> str:
    """`NotImplementedError`, `Parameter` of `x.Parameter`: the name a node ends with."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def enforced_abstract(facts: Facts) -> str | None:
    """What "What it means" says of a `raise NotImplementedError` in an `@abstractmethod`
    of a class that is an `ABC` itself (a base `ABC`, or `metaclass=ABCMeta`): Python does
    not create an instance of a subclass that leaves the method out, so "define it in your
    subclass" is no way out; only a call of the base's own method reaches the line. None for
    any other site (a base that is no `ABC` enforces nothing)."""
    site = facts.stored.site
    owner, _, name = site.function.rpartition(".")
    if not owner or "." in owner or site.exception != "NotImplementedError":
        return None
    text = facts.class_text(owner)
    if text is None or not may_name(text, "ABC"):  # (`ABCMeta` holds it too)
        return None  # no base or metaclass of it is the `ABC`'s: the class is not parsed
    cls = facts.top_class(owner)
    if cls is None or not _is_abc(cls):
        return None
    method = next((m for m in _methods(cls) if m.name == name), None)
    marks = {_last(d) for d in method.decorator_list} if method is not None else set()
    if "abstractmethod" not in marks or marks & {"staticmethod", "classmethod"}:
        return None  # a class-level method runs on a subclass no instance was made of
    read = name if "property" in marks else f"{name}()"
    return (
        f"{code(name)} is an abstract method of {code(owner)}, an `ABC`: Python does not "
        f"create an instance of a subclass that leaves it out (a `TypeError` says so), so "
        f"only a call of the base's own method reaches this line (a subclass's "
        f"`super().{read}`)."
    )


def _is_abc(cls: ast.ClassDef) -> bool:
    return any(_last(b) == "ABC" for b in cls.bases) or any(
        k.arg == "metaclass" and _last(k.value) == "ABCMeta" for k in cls.keywords
    )
