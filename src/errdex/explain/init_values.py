"""Which way a constructor's keyword decides an attribute it sets from more than itself.

`self.is_bool_flag = is_flag and isinstance(self.type, BoolParamType)` (click's `Option`):
a false `is_flag` makes the attribute false, but a true one does not make it true, the type
decides too; "pass a true `is_flag`" is no way out of `not self.is_bool_flag`. Likewise
`self.timeout = timeout or DEFAULT` is true for a true `timeout` and never false while
`DEFAULT` is not; and `self._is_generator = inspect.isasyncgen(stream)` is a test of the
keyword, whose truth is not the keyword's: an empty `stream` is no way out of it.
"""

from __future__ import annotations

import ast
import re
from typing import Literal

from errdex.explain.context import Facts, class_in_file
from errdex.explain.item_fields import own_init as class_init
from errdex.extract.shapes import own_attributes_set

Decides = Literal["both", "true", "false", "none"]
# Calls that keep what a value is, or at least whether it is empty: `int(x)`, `Path(x)`.
_PREDICATES = frozenset({"callable", "isinstance", "issubclass", "hasattr", "iscoroutine"})


def decided(facts: Facts, owner: str, attribute: str, param: str) -> Decides:
    """How `param` decides `self.<attribute>` in `owner.__init__` in the site's file:
    "both" (the keyword as it is, or a conversion of it; also when the assignment is not
    found), "true" (a true keyword is the attribute's value, an empty one gives way to a
    fallback: `param or default`), "false" (only a false keyword decides it: `param and
    other`), "none" (a test of the keyword, `inspect.isasyncgen(param)`). Only the
    assignments every run makes count: one under an `if` refines the value (`if key ==
    ASYM: self.key = SYM`)."""
    init = own_init(facts, owner)
    if init is None:
        return "both"
    values = [
        value
        for node in _unconditional(init.body)
        for name, value in own_attributes_set(node)
        if name == attribute
    ]
    ways = {_way(value, param) for value in values}
    if not ways:
        return "both"
    if len(ways) == 1:
        return ways.pop()
    return "both" if ways <= {"both"} else "none"


def own_init(facts: Facts, owner: str) -> ast.FunctionDef | None:
    """The `__init__` of the class `owner` in the site's file, when it has its own."""
    cls = class_in_file(facts, owner.rpartition(".")[2])
    return None if cls is None else class_init(cls)


def _unconditional(block: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a block every run reaches (into `with` and `try` bodies)."""
    out: list[ast.stmt] = []
    for statement in block:
        if isinstance(statement, ast.With | ast.AsyncWith | ast.Try):
            out.extend(_unconditional(statement.body))
        else:
            out.append(statement)
    return out


def _way(value: ast.expr, param: str) -> Decides:
    if isinstance(value, ast.Name):
        return "both" if value.id == param else "none"
    if isinstance(value, ast.BoolOp):
        first, others = value.values[0], value.values[1:]
        if not (isinstance(first, ast.Name) and first.id == param):
            return "none"
        if isinstance(value.op, ast.And):
            # true only with the others true: a literal true keeps the keyword's say
            return "both" if all(_literal_truth(o) is True for o in others) else "false"
        # `param or fallback`: false only with the fallback false
        return "both" if all(_literal_truth(o) is False for o in others) else "true"
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in _PREDICATES or name.startswith(("is", "has")):
            return "none"  # a test of the keyword: its truth is the test's
        return _way(value.args[0], param)
    return "both"


def _literal_truth(node: ast.expr) -> bool | None:
    """Whether a literal is true (`[]`, `None`, `0` are not); None when not a literal."""
    try:
        return bool(ast.literal_eval(node))
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None


# Sentences that make the keyword false: empty, None, False, or left out.
_FALSY = re.compile(
    r"an empty \(false\) value|Pass `False`|Pass None|\bleave it out\b|^Leave the argument",
    re.IGNORECASE,
)


def allows(way: Decides, text: str) -> bool:
    """Whether a sentence of what to pass is a way out the keyword decides: anything but a
    false value where only a true one is passed on (`param or fallback`), only a false
    value where only that decides (`param and other`)."""
    if way == "both":
        return True
    falsy = _FALSY.search(text) is not None
    if way == "true":
        return not falsy
    if way == "false":
        return falsy
    return False
