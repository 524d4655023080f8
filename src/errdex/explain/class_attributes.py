"""A check of one attribute of the user's class while Python creates it: the way out is that
attribute, set in the class.

Under a class-creation hook (`class_hooks.py`) the hook's class is the user's new class.
When the raise's own test reads one attribute of it (`cls.backend`, `getattr(cls, "backend",
None)`, or the body's own `cls.__dict__.get("metadata")`, as the test or through a local
read from it), the test says what the attribute must be:

- `not A` → give the class the attribute, set (not empty, zero or None);
- `A is None` → give the class the attribute;
- `not isinstance(A, T)` → make it a `T`; with `A is not None and ...` beside it, or read
  from the body with a default of None, leaving it out passes too.

Attributes Python itself gives every class (`__name__`, `__dict__`, `__mro__`, ...) are no
user's to set, and are left alone.
"""

from __future__ import annotations

import ast

from errdex.explain.class_hooks import checks_users_class
from errdex.explain.class_made import ATTRIBUTES
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.extract.shapes import is_none, is_not_none
from errdex.link.expression_texts import parse_expression

__all__ = ["attribute_solution"]

# What Python sets on every class: not the user's to define.
_MADE_BY_PYTHON = frozenset(
    {
        "__name__",
        "__qualname__",
        "__module__",
        "__dict__",
        "__bases__",
        "__mro__",
        "__class__",
        "__doc__",
        "__annotations__",
        "__subclasses__",
        "__parameters__",
    }
)


def attribute_solution(facts: Facts) -> Solution | None:
    """ "Give your class (a subclass of `B`) a class attribute `x` ...", or None."""
    hooks = facts.class_hook
    if hooks is None or not facts.held or not checks_users_class(facts):
        return None
    classes = {name for name, role in hooks.roles if role == ATTRIBUTES}
    if not classes:
        return None
    test = facts.held[-1]  # the raise's own test
    node = parse_expression(test.text)
    if node is None:
        return None
    local = {b.name: b.value for b in facts.bindings if b.origin == "local"}
    # an earlier guard `if A is not None:` on the same attribute: leaving it out passes
    guarded = {
        found[0]
        for c in facts.held[:-1]
        if (tested := parse_expression(c.text)) is not None
        and (value := is_not_none(tested)) is not None
        and (found := _attribute(value, classes, local)) is not None
    }
    wants = _wanted(node, classes, local, guarded)
    if wants is None:
        return None
    made = " or ".join(dict.fromkeys(h.made() for h in hooks.hooks))
    return Solution(
        text=(
            f"{wants.format(owner=f'your class ({made})')}: the check at line {test.line} "
            "tests it when Python creates the class."
        ),
        condition=test.text,
        kind="input",
    )


def _wanted(
    node: ast.expr, classes: set[str], local: dict[str, str], guarded: set[str]
) -> str | None:
    """What the attribute the test reads must be, as a sentence with `{owner}` for the
    class, or None when the test is not one of the shapes read here."""
    optional = False
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and len(node.values) == 2:
        first, node = node.values
        read = is_not_none(first)
        if read is None or _attribute(read, classes, local) is None:
            return None
        optional = True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        if _isinstance(inner) is not None:
            value, kind = _isinstance(inner) or (inner, "")
            found = _attribute(value, classes, local)
            if found is None:
                return None
            name, own_body = found
            leave = optional or name in guarded
            where = "in the body of {owner}" if own_body else "of {owner}"
            tail = ", or leave it out" if leave else ""
            return f"Make {code(name)} {where} an instance of {code(kind)}{tail}"
        found = _attribute(inner, classes, local)
        if found is None or optional:
            return None
        return (
            f"Give {{owner}} a class attribute {code(found[0])} that is set (not empty, zero "
            "or None)"
        )
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Is):
        right = node.comparators[0]
        found = _attribute(node.left, classes, local)
        if (
            found is None
            or optional
            or not (isinstance(right, ast.Constant) and right.value is None)
        ):
            return None
        return f"Give {{owner}} a class attribute {code(found[0])} (not None)"
    return None


def _isinstance(node: ast.expr) -> tuple[ast.expr, str] | None:
    """(the value, the class as written) of `isinstance(value, T)`, else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
        and not node.keywords
    ):
        return node.args[0], ast.unparse(node.args[1])
    return None


def _attribute(
    node: ast.expr, classes: set[str], local: dict[str, str], depth: int = 2
) -> tuple[str, bool] | None:
    """(the attribute's name, whether it is read from the body's own namespace) when `node`
    reads one attribute of the class (through a local read from it), else None."""
    if isinstance(node, ast.Name) and node.id in local and depth > 0:
        value = parse_expression(local[node.id])
        return _attribute(value, classes, local, depth - 1) if value is not None else None
    name: str | None = None
    own = False
    if isinstance(node, ast.Attribute) and _is_class(node.value, classes):
        name = node.attr
    elif isinstance(node, ast.Call) and node.args and not node.keywords:
        func = node.func
        key = node.args[1] if len(node.args) > 1 else None
        if isinstance(func, ast.Name) and func.id == "getattr" and len(node.args) in (2, 3):
            if _is_class(node.args[0], classes):
                name = _text(key)
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "get"
            and _is_namespace(func.value, classes)
            and (len(node.args) == 1 or is_none(node.args[1]))
        ):
            name, own = _text(node.args[0]), True
    elif isinstance(node, ast.Subscript) and _is_namespace(node.value, classes):
        name, own = _text(node.slice), True
    if name is None or name in _MADE_BY_PYTHON:
        return None
    return name, own


def _is_class(node: ast.expr, classes: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.id in classes


def _is_namespace(node: ast.expr, classes: set[str]) -> bool:
    """`cls.__dict__` or `vars(cls)`: the names the class's own body set."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return _is_class(node.value, classes)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "vars"
        and len(node.args) == 1
        and _is_class(node.args[0], classes)
    )


def _text(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
        return node.value
    return None
