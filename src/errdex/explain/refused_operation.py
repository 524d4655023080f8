"""An operation a class always refuses: the way out is not to do it on that object.

Some methods raise and do nothing else, with no guard: vllm's `FlatLogprobs.__setitem__`
(`TypeError("Cannot set logprobs in FlatLogprobs")`), SQLAlchemy's `Row.__setattr__`
(`AttributeError("can't set attribute")`), `ConstantList.append`. The class refuses the
operation outright, so nothing the user passes or sets avoids it: what does is not doing the
operation on that object. The page says so in the user's syntax, with the class's public
name: "Do not assign items of a `FlatLogprobs` (`obj[key] = ...`): it does not support it,
as its message says: ...".

Only where all of these hold, as a wrong way out is worse than none:
- the function's body is the `raise` alone (a docstring before it aside), of an exception
  Python itself uses for an operation an object's type refuses (`TypeError`,
  `AttributeError`, `io.UnsupportedOperation`, or a subclass): no `NotImplementedError`
  (an interface stub), no `abc.abstractmethod`, no Protocol, and no method a subclass of
  the same file overrides (a base's default its subclasses replace);
- the operation is one a user does on an object they hold: a dunder Python calls for the
  user's syntax (`obj[key] = v`, `del obj.attr`, `hash(obj)`, `len(obj)`, ...), or a public
  method of the class;
- the class is one the package hands its users (`state_gated.users_class`: a short public
  path or an export from a private module; for a dunder also a library's deeper export,
  `library_export`): a private class the user never names says nothing;
- a public method is called nowhere in the package (`IndexedSite.calls`, `callers`): one
  the package calls (pydantic's `GenerateJsonSchema.handle_invalid_for_json_schema`, run
  while it builds a schema, a hook its users' subclasses replace) is not the user's call.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk_scope
from errdex.explain.context import Facts
from errdex.explain.library_export import library_export
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.state_gated import MAX_DOTS as _MAX_DOTS
from errdex.explain.state_gated import users_class
from errdex.facts import ErrorSite, Placeholder, SiteKind

__all__ = ["refused_operation_solution"]

# What a dunder does in the user's syntax: (the verb phrase before "a `Class`", the syntax)
_OPERATIONS = {
    "__setitem__": ("assign items of", "obj[key] = value"),
    "__delitem__": ("delete items of", "del obj[key]"),
    "__setattr__": ("assign attributes of", "obj.attr = value"),
    "__delattr__": ("delete attributes of", "del obj.attr"),
    "__hash__": ("use as a dict key or a set member", "hash(obj)"),
    "__iter__": ("iterate over", "for item in obj"),
    "__aiter__": ("iterate over", "async for item in obj"),
    "__len__": ("take the length of", "len(obj)"),
    "__bool__": ("test the truth of", "if obj:"),
    "__contains__": ("test membership in", "x in obj"),
    "__call__": ("call", "obj(...)"),
}
# the exceptions Python raises for an operation an object's type does not support
_REFUSALS = frozenset({"TypeError", "AttributeError", "UnsupportedOperation"})
_MAX_MAKERS = 3  # the public calls named that return a private class
_ABSTRACT = frozenset({"ABC", "ABCMeta", "Protocol"})
# a placeholder that is the name of the object's own class
_OWN_CLASS_NAME = frozenset({"type(self).__name__", "self.__class__.__name__"})


def refused_operation_solution(facts: Facts) -> Solution | None:
    """ "Do not ... a `Class`" for a method that only raises a refusal; else None."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or facts.conditions or not _refusal(facts):
        return None
    owner, _, method = site.function.rpartition(".")
    if not owner or "." in owner or (method.startswith("_") and method not in _OPERATIONS):
        return None  # a plain function, a nested class, a private method
    held = users_class(facts) or (method in _OPERATIONS and library_export(facts))
    makers = [] if held else _returned_by(facts, owner)
    # A dunder's message that names the object's own class (`f"{type(self).__name__}
    # objects are unhashable"`) tells the user which object they did it to, though the
    # package hands the class out by no public name (a collection a proxy attribute returns).
    self_named = not held and not makers and method in _OPERATIONS and _names_own_class(site)
    if not held and not makers and not self_named:
        return None
    function = facts.site_function()
    own = facts.own_class()
    if function is None or own is None or not _raises_only(function, site.line):
        return None
    if _abstract(own, function) or _overridden(facts, owner, method):
        return None
    stored = facts.stored
    if stored.overrides is not None:
        return None  # a default subclasses in other files replace
    if method not in _OPERATIONS and (stored.callers or stored.calls):
        return None  # the package calls the method itself: not the user's operation alone
    name = f"a {code(owner)}"
    if makers:  # a private class: named by the public calls that return it
        name = "the object " + " or ".join(code(m) for m in makers) + " returns"
    elif self_named:
        name = f"a {code(owner)} (the class the message names)"
    if method in _OPERATIONS:
        verb, syntax = _OPERATIONS[method]
        if method == "__hash__":
            done = f"Do not use {name} as a dict key or a set member (`{syntax}`)"
        else:
            done = f"Do not {verb} {name} (`{syntax}`)"
    else:
        done = f"Do not call {code(method)} on {name}"
    holder = "that object" if makers else "the class"  # its class, when the message names it
    message = site.message.text.strip() if site.message is not None else ""
    if len(message.split()) > 1:
        reason = f": {holder} does not support it, as its message says: “{message}”"
    else:  # a bare word (`UnsupportedOperation("write")`) or none: the class raised says it
        exception = facts.stored.exception
        kind = exception.name if exception is not None else site.exception
        reason = f": {holder} does not support it (it always raises {code(kind or '')})"
    return Solution(text=done + reason, kind="input")


def _names_own_class(site: ErrorSite) -> bool:
    """Whether the message names the class of the object it is raised for."""
    parts = site.message.parts if site.message is not None else ()
    return any(isinstance(p, Placeholder) and p.expr in _OWN_CLASS_NAME for p in parts)


def _returned_by(facts: Facts, owner: str) -> list[str]:
    """The public functions and methods of the site's module that return a new `owner`
    (`return _Reader(...)`, or a local made so and returned: rich's `Progress.wrap_file`),
    when the module is one users import (a public path at most `_MAX_DOTS` dots deep to a
    class of it); none otherwise."""
    module = facts.stored.module
    if any(p.startswith("_") for p in module.split(".")) or module.count(".") > _MAX_DOTS - 1:
        return []
    tree = facts.source_tree()
    if tree is None:
        return []
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _returns_new(node, owner):
            found.append(node.name)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found.extend(
                f"{node.name}.{f.name}"
                for f in node.body
                if isinstance(f, ast.FunctionDef) and _returns_new(f, owner)
            )
    return [f for f in found if not f.rpartition(".")[2].startswith("_")][:_MAX_MAKERS]


def _returns_new(function: ast.FunctionDef, owner: str) -> bool:
    """Whether `function` returns `owner(...)`, directly or through a local it assigns."""
    made = {
        target.id
        for n in walk_scope(function.body)
        if isinstance(n, ast.Assign) and _makes(n.value, owner)
        for target in n.targets
        if isinstance(target, ast.Name)
    }
    return any(
        isinstance(n, ast.Return)
        and n.value is not None
        and (_makes(n.value, owner) or (isinstance(n.value, ast.Name) and n.value.id in made))
        for n in walk_scope(function.body)
    )


def _makes(node: ast.expr, owner: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == owner


def _refusal(facts: Facts) -> bool:
    info = facts.stored.exception
    if info is None:
        return False
    names = {info.name, *(b.rpartition(".")[2] for b in info.bases)}
    return bool(names & _REFUSALS) and "NotImplementedError" not in names


def _raises_only(function: ast.FunctionDef, line: int) -> bool:
    """Whether the function's body is one `raise` at `line` (after a docstring)."""
    body = list(function.body)
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return len(body) == 1 and isinstance(body[0], ast.Raise) and body[0].lineno <= line


def _abstract(own: ast.ClassDef, function: ast.FunctionDef) -> bool:
    """An interface: the method is abstract, or the class is an ABC or a Protocol."""
    named = {_last(d) for d in function.decorator_list}
    if "abstractmethod" in named:
        return True
    bases = {_last(b) for b in own.bases}
    bases |= {_last(k.value) for k in own.keywords if k.arg == "metaclass"}
    return bool(bases & _ABSTRACT)


def _last(node: ast.expr) -> str:
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _overridden(facts: Facts, owner: str, method: str) -> bool:
    """Whether a subclass of the site's file defines the method again."""
    for sub in facts.subclass_names(owner):
        cls = facts.top_class(sub)
        if cls is None or any(
            isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == method
            for n in cls.body
        ):
            return True  # unreadable counts as overriding: no wrong way out
    return False
