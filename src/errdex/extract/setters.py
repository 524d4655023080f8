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
import re
from collections import deque
from collections.abc import Callable, Iterator

from errdex.extract.shapes import own_attributes_set
from errdex.facts import Setter

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_MAX_SETTERS = 6
# `self.X = ...` (or annotated) in a method's text; not `self.X == ...`
_ASSIGNS = re.compile(r"\bself\.(\w+)[ \t]*(?::[^=\n]*)?=(?!=)")
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
            for attr in dict.fromkeys(_ASSIGNS.findall(text_of(method))):
                self._assigning.setdefault(attr, []).append(method)

    def of(self, attrs: set[str]) -> tuple[Setter, ...]:
        """The setters of the attributes `attrs` name (`self.X`, or the attribute the
        property `X` returns), with what they assign and under which test."""
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

    def visit(block: list[ast.stmt], guard: str | None) -> None:
        for stmt in block:
            if isinstance(stmt, ast.Assign | ast.AnnAssign):
                found.extend((a, v, guard) for a, v in own_attributes_set(stmt) if a in attrs)
            elif isinstance(stmt, ast.If):
                visit(stmt.body, _test_text(stmt.test))
                visit(stmt.orelse, f"not ({_test_text(stmt.test)})")
            elif isinstance(stmt, ast.With | ast.AsyncWith | ast.Try):
                visit(stmt.body, guard)

    visit(func.body, None)
    return found


def init_params(init: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    """`self.attr = param` (or `param or default`, `Type(param)`) in a class's `__init__`."""
    args = init.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}
    out: dict[str, str] = {}
    for node in _statements(init):
        if not isinstance(node, ast.stmt):
            continue
        for attr, value in own_attributes_set(node):
            source = _param_in(value, names)
            if source is not None:
                out.setdefault(attr, source)
    return out


def plain_init_params(init: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The attributes `__init__` assigns a parameter as it is (`self.attr = param`): those
    hold the parameter's default when a call leaves it out."""
    names = param_names(init)
    return {
        attr
        for node in _statements(init)
        if isinstance(node, ast.stmt)
        for attr, value in own_attributes_set(node)
        if isinstance(value, ast.Name) and value.id in names
    }


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


def _statements(root: ast.AST) -> Iterator[ast.AST]:
    """The statements under `root` in the order `ast.walk` gives them (breadth first),
    without walking expressions, which hold none."""
    queue = deque([root])
    while queue:
        node = queue.popleft()
        queue.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, _STATEMENT_NODES))
        yield node


_STATEMENT_NODES = (ast.stmt, ast.excepthandler, ast.match_case)
