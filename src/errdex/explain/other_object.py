"""Ways out through a keyword of another object's constructor: the check reads an attribute
of an argument whose class, defined in the same file, set it from its own keyword.

click's `_check_multicommand(base_command: "MultiCommand", ...)` raises when
`base_command.chain` is true and a group is added under it; `MultiCommand.__init__` sets
`self.chain = chain` from its keyword (`False` by default): the author's way out is to make
the group without `chain=True`. Taken for a part of an earlier exit's condition on the
path that an attribute alone decides (`base_command.chain` true, where the exit returns
when it is false), when the argument is annotated with a public class of the same file
whose `__init__` assigns the attribute its keyword as it is, off by default: the way out
is to leave out the mode the user turned on. Turning a mode on, or a default one off, is
not offered: it changes what the program does (click's `resilient_parsing`).
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.hooks import hook_solution
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.extract.shapes import and_parts
from errdex.facts import ConditionKind

__all__ = ["other_object_solution", "own_object_solutions"]

_FALSE = frozenset({"False", "None", "0", "()", "[]", "''", '""'})


def own_object_solutions(
    conditions: list[ConditionView], facts: Facts
) -> list[tuple[Solution, int]]:
    """The ways out through the user's own objects, each with its tier: a keyword of an
    argument's class, a hook on the type the function was given."""
    found = [(other_object_solution(conditions, facts), 2), (hook_solution(facts), 1)]
    return [(solution, tier) for solution, tier in found if solution is not None]


def other_object_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Make your `MultiCommand` without `chain=True`", for a condition part on an attribute
    of an argument that its class's constructor set from a keyword."""
    if not any(c.kind == ConditionKind.EARLY_EXIT and "." in c.text for c in conditions):
        return None  # most pages: no file is parsed for nothing
    function = facts.site_function()
    typed = _annotated(function) if function is not None else None
    if not typed:
        return None
    for condition in reversed(conditions):
        if condition.kind != ConditionKind.EARLY_EXIT:
            continue  # a check that returns when the mode is off; an `if` around the work
            # under the mode (a pool's pre-ping) is what the mode does, not a check of it
        for part, truthy in _attribute_parts(condition.text):
            owner, _, attr = part.partition(".")
            cls = facts.top_class(typed[owner]) if owner in typed else None
            if cls is None or cls.name.startswith("_"):
                continue
            keyword = _keywords(cls).get(attr)
            if keyword is None:
                continue
            param, default = keyword
            if not truthy or default not in _FALSE:
                continue  # turning a mode on (or a default off) is a change of design
            how = (
                f"without {code(param + '=True')} (leave {code(param)} out: it is "
                f"{code(default)} by default)"
            )
            return Solution(
                text=(
                    f"If you made the {code(cls.name)}: make it {how}; the check at line "
                    f"{condition.line} reads {code(part)}, which `{cls.name}(...)` sets from "
                    f"its keyword {code(param)}."
                ),
                condition=condition.text,
                kind="input",
            )
    return None


def _annotated(function: ast.FunctionDef) -> dict[str, str]:
    """Parameter → the class name its annotation names (`"MultiCommand"`, `t.Optional[X]`)."""
    out: dict[str, str] = {}
    for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]:
        node = arg.annotation
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        elif isinstance(node, ast.Name | ast.Attribute):
            name = ast.unparse(node)
        else:
            continue
        out[arg.arg] = name.rpartition(".")[2]
    return out


def _attribute_parts(text: str) -> list[tuple[str, bool]]:
    """The parts of a condition on the path that an attribute alone decides: (`x.attr`,
    whether it holds when the attribute is true), of the condition or each `and` part."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return []
    parts = and_parts(node)
    out: list[tuple[str, bool]] = []
    for part in parts:
        truthy = not (isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not))
        inner = part if truthy else part.operand  # type: ignore[attr-defined]
        if (
            isinstance(inner, ast.Attribute)
            and isinstance(inner.value, ast.Name)
            and inner.value.id not in ("self", "cls")
        ):
            out.append((f"{inner.value.id}.{inner.attr}", truthy))
    return out


def _keywords(cls: ast.ClassDef) -> dict[str, tuple[str, str]]:
    """Attribute → (the `__init__` keyword it is set from as it is, that keyword's default)."""
    init = next(
        (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None
    )
    if init is None:
        return {}
    args = init.args
    positional = [*args.posonlyargs, *args.args]
    defaults: dict[str, str] = {
        a.arg: ast.unparse(d) for a, d in zip(positional[::-1], args.defaults[::-1], strict=False)
    }
    defaults |= {
        a.arg: ast.unparse(d)
        for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
        if d is not None
    }
    out: dict[str, tuple[str, str]] = {}
    for stmt in init.body:
        if not (isinstance(stmt, ast.Assign | ast.AnnAssign) and isinstance(stmt.value, ast.Name)):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and stmt.value.id in defaults
            ):
                out[target.attr] = (stmt.value.id, defaults[stmt.value.id])
    return out
