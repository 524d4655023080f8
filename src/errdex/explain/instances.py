"""Ways out through the input: a class passed where an instance was wanted.

click's `convert_type` returns a `ParamType` instance as it is (`if isinstance(ty,
ParamType): return ty`), and its check `issubclass(ty, ParamType)` fails on the class
itself ("Attempted to use an uninstantiated parameter type"): the way out is to pass an
instance, `MyType()`. Taken when the check is `issubclass(x, C)` on an argument and an
earlier exit on the path returns for `isinstance(x, C)` of the same class.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.inputs import Given, public_name
from errdex.explain.page import ConditionView
from errdex.explain.plain import code
from errdex.facts import ConditionKind

__all__ = ["instance_action"]


def instance_action(check: ConditionView, facts: Facts) -> Given | None:
    """ "Pass an instance of `C`, not the class", for a check `issubclass(x, C)` on an
    argument `x` when an earlier exit takes instances of `C` as they are."""
    function = facts.stored.site.function
    if not public_name(function):
        return None
    tested = _class_test(check.test, "issubclass") if check.holds else None
    if tested is None or tested[0] not in facts.read.params:
        return None
    argument, wanted = tested
    for exit_ in facts.held:
        if exit_.kind != ConditionKind.EARLY_EXIT or exit_.holds or exit_.line >= check.line:
            continue
        if _class_test(exit_.test, "isinstance") == (argument, wanted):
            callee = function.removesuffix(".__init__")
            return Given(
                f"Pass an instance, not the class, for the argument {code(argument)} of "
                f"{code(callee)}: write `YourType()` where you wrote `YourType` (line "
                f"{exit_.line} takes an instance of {code(wanted)} as it is)."
            )
    return None


def _class_test(text: str, how: str) -> tuple[str, str] | None:
    """`issubclass(ty, ParamType)` → ("ty", "ParamType")."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id != how or len(node.args) != 2 or node.keywords:
        return None
    subject, cls = node.args
    if not isinstance(subject, ast.Name) or not isinstance(cls, ast.Name | ast.Attribute):
        return None
    return subject.id, ast.unparse(cls)
