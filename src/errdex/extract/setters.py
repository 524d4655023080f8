"""What sets the attributes a condition tests (`self.X`), as a user can reach it: the
parameter of the class's constructor assigned to it, and the public methods that assign it.

`set_alt_screen(enable)` assigns `self._is_alt_screen`, which the property `is_alt_screen`
returns, which `update_screen` checks before it raises "Alt screen must be enabled". Read
from the class that holds a site, for the `self.X` names its conditions read: the property
`X` when it returns another attribute as it is, then the public methods of the class that
assign that attribute a parameter or a literal. A method the skeleton blanked is read from
the original text (through `original`), and only when that text assigns it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.extract.shapes import own_attributes_set, statements_under
from errdex.lazy_re import lazy_compile
from errdex.reading_facts import Setter

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_MAX_SETTERS = 6
# `self.X = ...` (or annotated) in a method's text; not `self.X == ...`. Matched where
# `self.` starts a word (`_assigned_attributes`).
# `self.X = ...` where `self` starts a word (a look-behind after the literal, so that the
# engine jumps from one `self` to the next; a leading `\b` is tried at every character)
_ASSIGN = lazy_compile(r"self(?<!\wself)\.(\w+)[ \t]*(?::[^=\n]*)?=(?!=)")
Function = ast.FunctionDef | ast.AsyncFunctionDef


class ClassSetters:
    """The public methods of one class that assign attributes of the instance, indexed by
    the attribute once (their text scanned, not parsed), each parsed when a condition asks
    for an attribute it assigns."""

    def __init__(
        self,
        cls: ast.ClassDef,
        original: Callable[[Function], Function],
        text_of: Callable[[Function], str],
    ) -> None:
        self._original = original
        methods = [s for s in cls.body if isinstance(s, _FUNCTIONS)]
        self._properties = {m.name: m for m in methods if _is_property(m)}
        self._assigning: dict[str, list[Function]] = {}
        for method in methods:
            if method.name.startswith("_") or method.name in self._properties:
                continue
            for attr in dict.fromkeys(_assigned_attributes(text_of(method))):
                self._assigning.setdefault(attr, []).append(method)
        self._of: dict[frozenset[str], tuple[Setter, ...]] = {}

    def of(self, attrs: set[str]) -> tuple[Setter, ...]:
        """The setters of the attributes `attrs` name (`self.X`, or the attribute the
        property `X` returns), with what they assign and under which test; worked out once
        per set of attributes (the sites of a method ask about the same ones)."""
        key = frozenset(attrs)
        found = self._of.get(key)
        if found is None:
            found = self._of[key] = self._setters_of(attrs)
        return found

    def _setters_of(self, attrs: set[str]) -> tuple[Setter, ...]:
        behind: dict[str, str] = {}  # the attribute assigned → the name the condition reads
        for attr in sorted(attrs):
            behind.setdefault(attr, attr)
            prop = self._properties.get(attr)
            returned = _returned_attribute(self._original(prop)) if prop is not None else None
            if returned is not None:
                behind.setdefault(returned, attr)
        methods = [m for a in behind for m in self._assigning.get(a, ())]
        out: list[Setter] = []
        for method in dict.fromkeys(methods):
            whole = self._original(method)
            defaults = _defaults(whole)
            for target, value, guard in _assignments(whole, set(behind)):
                if isinstance(value, ast.Name) and value.id in defaults:
                    default = defaults[value.id]
                elif isinstance(value, ast.Constant):
                    default = None
                else:
                    continue  # a computed value: what to pass is not said exactly
                out.append(
                    Setter(
                        attr=behind[target],
                        target=target,
                        method=method.name,
                        value=ast.unparse(value),
                        default=default,
                        guard=guard,
                    )
                )
                if len(out) >= _MAX_SETTERS:
                    return tuple(out)
        return tuple(out)


def _assigned_attributes(text: str) -> list[str]:
    """`X` of each `self.X = ...` in `text`, in order, where `self` starts a word (not
    `myself.x`): one pass of the pattern, which jumps from one `self` to the next."""
    return [match.group(1) for match in _ASSIGN.finditer(text)]


def _test_text(test: ast.expr) -> str:
    """The test as written: `a and not b`, where `ast.unparse` writes `a and (not b)`."""
    if not isinstance(test, ast.BoolOp):
        return ast.unparse(test)
    joiner = " and " if isinstance(test.op, ast.And) else " or "
    return joiner.join(
        f"({ast.unparse(v)})" if isinstance(v, ast.BoolOp) else ast.unparse(v) for v in test.values
    )


def _is_property(func: Function) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id in ("property", "cached_property"))
        or (isinstance(d, ast.Attribute) and d.attr == "cached_property")
        for d in func.decorator_list
    )


def _returned_attribute(func: Function) -> str | None:
    """`return self._x` as a property's last statement: `_x`."""
    last = func.body[-1] if func.body else None
    if (
        isinstance(last, ast.Return)
        and isinstance(last.value, ast.Attribute)
        and isinstance(last.value.value, ast.Name)
        and last.value.value.id == "self"
    ):
        return last.value.attr
    return None


def _defaults(func: Function) -> dict[str, str | None]:
    """Each parameter (after self) → the source of its default, None when it has none."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    out: dict[str, str | None] = {}
    padded = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for arg, default in zip(positional, padded, strict=True):
        out[arg.arg] = ast.unparse(default) if default is not None else None
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        out[arg.arg] = ast.unparse(kw_default) if kw_default is not None else None
    out.pop("self", None)
    return out


def _assignments(func: Function, attrs: set[str]) -> list[tuple[str, ast.expr, str | None]]:
    """`self.X = value` in the method's own body (not in nested functions), with the test
    of the innermost `if` it sits under."""
    found: list[tuple[str, ast.expr, str | None]] = []

    # The guard is the `if` and the branch taken; its text is written only for an
    # assignment kept (most `if`s guard none).
    def visit(block: list[ast.stmt], guard: tuple[ast.expr, bool] | None) -> None:
        for stmt in block:
            if isinstance(stmt, ast.Assign | ast.AnnAssign):
                kept = [(a, v) for a, v in own_attributes_set(stmt) if a in attrs]
                if kept:
                    text = _guard_text(*guard) if guard is not None else None
                    found.extend((a, v, text) for a, v in kept)
            elif isinstance(stmt, ast.If):
                visit(stmt.body, (stmt.test, True))
                visit(stmt.orelse, (stmt.test, False))
            elif isinstance(stmt, ast.With | ast.AsyncWith | ast.Try):
                visit(stmt.body, guard)

    visit(func.body, None)
    return found


def _guard_text(test: ast.expr, holds: bool) -> str:
    return _test_text(test) if holds else f"not ({_test_text(test)})"


def init_params(init: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[dict[str, str], set[str]]:
    """`self.attr = param` (or `param or default`, `Type(param)`) in a class's `__init__`:
    each attribute → its parameter; and the attributes assigned a parameter as it is
    (`self.attr = param`), which hold the parameter's default when a call leaves it out.
    Both from one walk of the constructor's statements."""
    names = param_names(init)
    out: dict[str, str] = {}
    plain: set[str] = set()
    for node in statements_under(init):
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue  # (`own_attributes_set` finds nothing in any other statement)
        for attr, value in own_attributes_set(node):
            source = _param_in(value, names)
            if source is not None:
                out.setdefault(attr, source)
                if isinstance(value, ast.Name):  # the parameter as it is
                    plain.add(attr)
    return out, plain


def rebound(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether the function stores to the local `name` anywhere (a parameter rebound)."""
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in walk(function)
    )


def param_names(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = func.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}


def _param_in(value: ast.expr, names: set[str]) -> str | None:
    """The parameter a value is as it is, or with a fallback or a conversion around it."""
    if isinstance(value, ast.Name) and value.id in names:
        return value.id
    if isinstance(value, ast.BoolOp) and isinstance(value.values[0], ast.Name):
        return value.values[0].id if value.values[0].id in names else None
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
        return _param_in(value.args[0], names)
    return None
