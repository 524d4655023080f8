"""A default filled in before the check: a test of `x is None` that cannot hold.

`console = console or get_console()` followed by `assert console is not None` cannot fail
when `get_console` never returns None; nor can `fore = fore if fore is not None else 7`
followed by `assert fore is not None`. Offering "give the argument `console` a value" is
then no way out of anything: the page says the check cannot fail instead. Only with
evidence that the filled-in value is never None: a literal, a display (`[...]`, f-string),
arithmetic, a call of a builtin that makes a value, a class of the package (an instance),
or a function of the package declared to return a type that is not optional.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.callee_advice import resolve_called
from errdex.explain.context import Facts
from errdex.explain.left_out import none_test
from errdex.explain.outline import defining, importing_or_defining, top_module
from errdex.explain.plain import code
from errdex.explain.unreached import FilledDefault
from errdex.link.expression_texts import parse_expression
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["filled_default", "never_none"]

# Builtins whose call makes a value of their own type (never None).
_MAKERS = frozenset(
    {
        "list",
        "dict",
        "set",
        "tuple",
        "frozenset",
        "str",
        "bytes",
        "bytearray",
        "int",
        "float",
        "bool",
        "len",
        "sorted",
        "range",
        "repr",
    }
)
_DISPLAYS = (
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.JoinedStr,
    ast.Lambda,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
)
# Words of a return annotation that admit None (or say nothing of it).
_MAYBE_NONE = ("None", "Optional", "Any", "object", "NoReturn")

# What a call's name stands for: why it never returns None (a sentence part), or None.
Resolver = Callable[[str], str | None]


def never_none(node: ast.expr, resolve: Resolver | None = None) -> str | None:
    """Why the value of `node` is never None (a few words), or None when not sure.
    `resolve` says it of a call of a name of the package (a class, a function declared
    to return a type)."""
    if isinstance(node, ast.Constant):
        return None if node.value is None else f"{code(ast.unparse(node))} is a literal"
    if isinstance(node, _DISPLAYS):
        return f"{code(ast.unparse(node))} makes a value"
    if isinstance(node, ast.BoolOp):
        # `a or b` is `b` when `a` is false; `a and b` is `a` when `a` is false
        parts = node.values[-1:] if isinstance(node.op, ast.Or) else node.values
        said = [never_none(p, resolve) for p in parts]
        return said[-1] if said and all(said) else None
    if isinstance(node, ast.IfExp):
        both = [never_none(node.body, resolve), never_none(node.orelse, resolve)]
        return f"{both[0]} and {both[1]}" if all(both) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in _MAKERS:
            return f"{code(node.func.id + '()')} makes a value"
        return resolve(node.func.id) if resolve is not None else None
    return None


def filled_default(store: Store, stored: StoredSite, facts: Facts) -> FilledDefault | None:
    """The local a held `x is None` tests, when the function's one assignment of it, at
    the top of its body before the check, fills in a value that is never None."""
    tested = [(c, name) for c in facts.held if (name := _none_tested(c.text)) is not None]
    function = facts.site_function() if tested else None  # most pages: no `x is None`
    if function is None:
        return None
    for condition, name in tested:
        bound = _one_binding(function, name, condition.line)
        if bound is None:
            continue
        filled = _filled_in(bound.value, name)
        if filled is None:
            continue
        why = never_none(filled, _resolver(store, stored, function, facts))
        if why is not None:
            return FilledDefault(name, ast.unparse(bound.value), bound.lineno, why)
    return None


def _none_tested(text: str) -> str | None:
    if not text.endswith(" is None"):
        return None  # most conditions: not parsed
    node = parse_expression(text)
    return none_test(node) if node is not None else None


def _one_binding(function: ast.FunctionDef, name: str, before: int) -> ast.Assign | None:
    """The assignment of `name` when it is the only store of it in the function (nested
    functions too), a statement of the body itself (no branch skips it) before `before`."""
    stores = [
        n
        for n in walk(function)
        if (isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load))
        or (isinstance(n, ast.arg) and n.arg == name and n not in _own_args(function))
        or (isinstance(n, ast.Global | ast.Nonlocal) and name in n.names)
    ]
    if len(stores) != 1:
        return None
    for statement in function.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and statement.targets[0] is stores[0]
            and statement.lineno < before
        ):
            return statement
    return None


def _own_args(function: ast.FunctionDef) -> list[ast.arg]:
    args = function.args
    packed = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *packed]


def _filled_in(value: ast.expr, name: str) -> ast.expr | None:
    """`E` of `name or E`, `E if name is None else name`, `name if name is not None else E`."""
    if (
        isinstance(value, ast.BoolOp)
        and isinstance(value.op, ast.Or)
        and len(value.values) == 2
        and _is_name(value.values[0], name)
    ):
        return value.values[1]
    if isinstance(value, ast.IfExp):
        test = ast.unparse(value.test)
        if test == f"{name} is None" and _is_name(value.orelse, name):
            return value.body
        if test == f"{name} is not None" and _is_name(value.body, name):
            return value.orelse
    return None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _resolver(
    store: Store, stored: StoredSite, function: ast.FunctionDef, facts: Facts
) -> Resolver:
    def resolve(name: str) -> str | None:
        # the package relative imports start from: the module itself for an `__init__`
        package = (
            stored.module
            if stored.file.rpartition("/")[2] == "__init__.py"
            else stored.module.rpartition(".")[0]
        )
        imports: list[ast.stmt] = [s for s in function.body if isinstance(s, ast.ImportFrom)]
        where = resolve_called(
            name, ast.Module(body=imports, type_ignores=[]), stored.module, package
        )
        if where is None:
            top = facts.top_module(importing_or_defining(name))
            where = resolve_called(name, top, stored.module, package) if top else None
        if where is None:
            return None
        module, defined = where
        base = module.replace(".", "/")
        for path in (base + ".py", base + "/__init__.py"):
            if path == stored.file:
                return _returns_value(facts.top_module(defining(defined)), defined)
            text = store.file_text(stored.version_id, path)
            if text is not None:
                tree = top_module(
                    text, store.file_outline(stored.version_id, path), defining(defined)
                )
                return _returns_value(tree, defined)
        return None

    return resolve


def _defines(statement: ast.stmt, name: str) -> bool:
    return isinstance(statement, ast.FunctionDef | ast.ClassDef) and statement.name == name


def _returns_value(tree: ast.Module | None, name: str) -> str | None:
    """Why a call of the module's top-level `name` is never None: a class makes an
    instance; a function declared to return a type that is not optional returns one."""
    if tree is None:
        return None
    found = [s for s in tree.body if _defines(s, name)]
    if len(found) != 1:
        return None  # defined twice (under a condition): not one answer
    defined = found[0]
    if isinstance(defined, ast.ClassDef):
        return f"calling the class {code(name)} makes an instance"
    if not isinstance(defined, ast.FunctionDef) or defined.returns is None:
        return None
    returns = defined.returns
    written = returns.value if isinstance(returns, ast.Constant) else ast.unparse(returns)
    if not isinstance(written, str) or any(w in written for w in _MAYBE_NONE) or "|" in written:
        return None
    return f"{code(name)} is declared to return {code(written)}"
