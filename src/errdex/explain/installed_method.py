"""A method a class decorator gives the user's class that reads back its `__init__`'s
parameters: the way out is in that class.

rich's `@rich.repr.auto` gives the class it decorates a `__rich_repr__` that reads every
parameter of the class's own `__init__` back as an attribute (`for name, param in
inspect.signature(self.__init__).parameters.items(): ... getattr(self, param.name)`) and
raises `ReprError` from the `except` around it when one is missing. The check runs on an
instance of the user's class, and what it reads is the user's declaration: an `__init__`
that takes `name` but never keeps `self.name`. The way out is in that class: keep each
parameter as an attribute of the same name; and where the decorator gives the method only
to a class that has none (`if not hasattr(cls, "__rich_repr__"): cls.__rich_repr__ = ...`),
define that method on the class, which the decorator then leaves as it is.

Offered when the site is under an `except` whose `try` holds that loop, the site's function
is defined in a function that assigns it to an attribute of its first parameter (the class
it is handed) and returns that parameter, and the outermost function is a module function
of a public module (the decorator the user writes: `@rich.repr.auto`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.ast_walk import walk, walk_scope
from errdex.explain.closure_switch import public_module
from errdex.explain.context import Facts
from errdex.explain.outline import defining
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.facts import SiteKind

__all__ = ["installed_solutions"]

# the calls that give an object's signature: `inspect.signature(self.__init__)`
_SIGNATURES = frozenset({"signature"})


@dataclass(frozen=True)
class _Installed:
    decorator: str  # the public decorator: `rich.repr.auto`
    method: str  # the attribute the method is given as: `__rich_repr__`
    read_line: int  # the `getattr(self, ...)` that reads a parameter back
    only_if_missing: int | None  # the line of `if not hasattr(cls, "...")`, if it guards it


def installed_solutions(facts: Facts) -> list[Solution]:
    """ "In the class you decorate with `@deco`, keep each parameter of `__init__` as an
    attribute of the same name ...", and "Define `__m__` on that class yourself" where the
    decorator gives it only to a class without one; none for any other site."""
    found = facts.once("installed_method", lambda: _installed(facts))
    if found is None:
        return []
    deco = code(f"@{found.decorator}")
    method = code(found.method)
    kept = Solution(
        text=(
            f"In the class you decorate with {deco}, keep each parameter of `__init__` as an "
            f"attribute of the same name (`self.x = x` for a parameter `x`): the {method} "
            f"{deco} gives the class reads each one back with `getattr` (line "
            f"{found.read_line}), and fails on one it cannot find."
        ),
        kind="input",
    )
    if found.only_if_missing is None:
        return [kept]
    own = Solution(
        text=(
            f"Define {method} on that class yourself: {deco} gives a class its own only "
            f"when it has none (line {found.only_if_missing}), and keeps yours."
        ),
        kind="input",
    )
    return [kept, own]


def _installed(facts: Facts) -> _Installed | None:
    site = facts.stored.site
    if site.kind is not SiteKind.RAISE or facts.innermost_except() is None:
        return None
    names = site.function.split(".<locals>.")
    if len(names) < 2 or "." in names[0] or names[0].startswith("_"):
        return None  # only a public module function's closure: the decorator and what it installs
    module = public_module(facts.stored.file)
    tree = facts.top_module(defining(names[0]))
    if module is None or tree is None:
        return None
    chain = _chain(tree.body, names, site.line)
    if chain is None:
        return None
    maker, method = chain[-2], chain[-1]
    installed = _installed_as(maker, method.name)
    if installed is None:
        return None
    attribute, guard = installed
    read = _read_back(method, site.line)
    if read is None:
        return None
    return _Installed(f"{module}.{names[0]}", attribute, read, guard)


def _chain(body: list[ast.stmt], names: list[str], line: int) -> list[ast.FunctionDef] | None:
    """The functions `names` nest (`auto`, `do_replace`, `auto_rich_repr`), each the `def`
    of its name that holds the site's line in the one before."""
    found: list[ast.FunctionDef] = []
    statements: list[ast.AST] = list(body)
    for name in names:
        node = next(
            (
                n
                for n in statements
                if isinstance(n, ast.FunctionDef)
                and n.name == name
                and n.lineno <= line <= (n.end_lineno or n.lineno)
            ),
            None,
        )
        if node is None:
            return None
        found.append(node)
        statements = walk_scope(node.body)
    return found


def _installed_as(maker: ast.FunctionDef, method: str) -> tuple[str, int | None] | None:
    """(the attribute of the class `maker` is handed that it sets to `method`, the line of
    an `if not hasattr(cls, "<attribute>")` it is set under), when `maker` returns that
    class; else None."""
    positional = [*maker.args.posonlyargs, *maker.args.args]
    if not positional:
        return None
    cls = positional[0].arg
    scope = walk_scope(maker.body)
    returns = [n for n in scope if isinstance(n, ast.Return)]
    if not returns or any(not _is_name(r.value, cls) for r in returns):
        return None  # not a decorator that hands the class back
    for node in scope:
        if not isinstance(node, ast.If):
            continue
        for statement in node.body:
            attribute = _set_to(statement, cls, method)
            if attribute is not None and _lacks(node.test, cls, attribute):
                return attribute, node.lineno
    for node in scope:
        attribute = _set_to(node, cls, method)
        if attribute is not None:
            return attribute, None
    return None


def _set_to(node: ast.AST, cls: str, method: str) -> str | None:
    """The attribute of `cls` that `cls.<attribute> = method` sets, or None."""
    if not (isinstance(node, ast.Assign) and _is_name(node.value, method)):
        return None
    for target in node.targets:
        if isinstance(target, ast.Attribute) and _is_name(target.value, cls):
            return target.attr
    return None


def _lacks(test: ast.expr, cls: str, attribute: str) -> bool:
    """Whether `test` is `not hasattr(cls, "<attribute>")`."""
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
        return False
    call = test.operand
    return (
        isinstance(call, ast.Call)
        and _is_name(call.func, "hasattr")
        and len(call.args) == 2
        and _is_name(call.args[0], cls)
        and isinstance(call.args[1], ast.Constant)
        and call.args[1].value == attribute
    )


def _read_back(method: ast.FunctionDef, line: int) -> int | None:
    """The line of `getattr(self, p)` for a parameter `p` of `signature(self.__init__)`,
    in a loop the `try` whose handler holds `line` runs; else None."""
    positional = [*method.args.posonlyargs, *method.args.args]
    if not positional:
        return None
    this = positional[0].arg
    for node in walk(method):
        if not isinstance(node, ast.Try) or not any(
            h.lineno <= line <= (h.end_lineno or h.lineno) for h in node.handlers
        ):
            continue
        signatures = _signature_names(node.body, this)
        for loop in walk_scope(node.body):
            if isinstance(loop, ast.For) and _over_parameters(loop.iter, signatures, this):
                read = _getattr_of(loop, this)
                if read is not None:
                    return read
    return None


def _signature_names(body: list[ast.stmt], this: str) -> set[str]:
    """The locals `body` sets to `signature(<this>.__init__)`."""
    return {
        target.id
        for node in walk_scope(body)
        if isinstance(node, ast.Assign) and _is_init_signature(node.value, this)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _is_init_signature(node: ast.expr, this: str) -> bool:
    """`signature(self.__init__)` or `inspect.signature(self.__init__)`."""
    if not isinstance(node, ast.Call) or len(node.args) != 1:
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    argument = node.args[0]
    return (
        name in _SIGNATURES
        and isinstance(argument, ast.Attribute)
        and argument.attr == "__init__"
        and _is_name(argument.value, this)
    )


def _over_parameters(node: ast.expr, signatures: set[str], this: str) -> bool:
    """`sig.parameters`, `.items()` or `.values()` of it, for a signature of `__init__`."""
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute):
        if node.func.attr not in ("items", "values", "keys"):
            return False
        node = node.func.value
    if not (isinstance(node, ast.Attribute) and node.attr == "parameters"):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id in signatures) or _is_init_signature(
        owner, this
    )


def _getattr_of(loop: ast.For, this: str) -> int | None:
    """The line of the first `getattr(<this>, n)` in the loop whose `n` is a name the
    loop's target binds, or `.name` of one."""
    bound = {n.id for n in walk(loop.target) if isinstance(n, ast.Name)}
    for node in walk(loop):
        if not (
            isinstance(node, ast.Call)
            and _is_name(node.func, "getattr")
            and len(node.args) == 2
            and _is_name(node.args[0], this)
        ):
            continue
        key = node.args[1]
        if isinstance(key, ast.Name) and key.id in bound:
            return node.lineno
        if (
            isinstance(key, ast.Attribute)
            and key.attr == "name"
            and isinstance(key.value, ast.Name)
            and key.value.id in bound
        ):
            return node.lineno
    return None


def _is_name(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
