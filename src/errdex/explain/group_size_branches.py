"""The other branch's way out on a group size's check of a model's KV heads.

`if kv >= tp_size: assert kv % tp_size == 0 else: assert tp_size % kv == 0`: on the first
check's page, besides a size that divides the KV heads (`group_size_actions`), a multiple of
them above them takes the `else` branch and passes it. The page says so when its conditions
put the check under a comparison of the same heads with the same size.

Not the other way round (a size that divides the heads, on the check of a size above them):
a size above the heads may be what another setting needs (vllm's decode context parallelism
wants more tensor-parallel ranks than KV heads, checked before any model is built), and the
page cannot tell. On the check that the heads divide by the size, the size is at most the
heads already, so no such setting is on. Nor where the other branch fails on its own
(`else: raise ValueError(...)`), or the function raises where the heads are fewer than the
size (`elif kv < tp_size: raise ValueError(...)`): a size above the heads leads into that
error.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from errdex.ast_walk import walk
from errdex.explain.group_size_actions import DIVIDING_HEADS, fewer_than, kv_remainder
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView, Knob
from errdex.explain.plain import code
from errdex.extract.shapes import and_parts
from errdex.facts import ConditionKind
from errdex.reading_facts import SourceRead

# a comparison the check sits under, with code on its other side (not an earlier exit,
# whose other side leaves the function)
_BRANCHES = (ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE)


def other_branch(
    action: KnobAction,
    condition: ConditionView,
    knobs: list[Knob],
    held: list[ConditionView],
    read: SourceRead,
    function: ast.FunctionDef | None = None,
) -> KnobAction:
    """`action` with the other branch's way said, when it is a group size's action on a
    check that the heads divide by the size, which `held` puts under a comparison of the
    same heads with the size: above the heads, a multiple of them takes the other branch
    (unless that branch always fails, as `read` says)."""
    knob = next((k for k in knobs if k.group_size and k.name == action.knob), None)
    if knob is None or knob.behind is None:
        return action
    try:
        node = ast.parse(action.part or condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return action
    found = kv_remainder(node, knob)
    if found is None or not found[1]:
        return action
    heads = found[0]
    branch = next(
        (c for c in held if c.kind in _BRANCHES and _compares(c.text, heads, knob.behind)),
        None,
    )
    if branch is None or read.other_branch_fails(branch.line, branch.holds):
        return action
    if function is not None and _raises_below(function, heads, knob.behind):
        return action  # above the heads, the other branch's own check raises
    line = branch.line
    other = f"a multiple of {code(heads)} {DIVIDING_HEADS}, above {code(heads)}"
    return replace(
        action, aside=f"Or pass {other}: the test at line {line} then takes its other branch."
    )


def _raises_below(function: ast.FunctionDef, heads: str, size: str) -> bool:
    """Whether the site's function raises where the heads are fewer than the size: an
    `if`/`elif` testing `heads < size` (or `size > heads`) whose body raises
    (`elif self.total_num_kv_heads < self.tp_size: raise ValueError(...)`)."""
    for node in walk(function):
        if not isinstance(node, ast.If) or not any(isinstance(s, ast.Raise) for s in node.body):
            continue
        sides = fewer_than(node.test)
        if sides is not None and (ast.unparse(sides[0]), ast.unparse(sides[1])) == (heads, size):
            return True
    return False


def _compares(text: str, heads: str, size: str) -> bool:
    """Whether `text`, or one conjunct of it, compares `heads` with the name `size`
    (either side, any order)."""
    if size not in text:
        return False
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    parts = and_parts(node)
    return any(_compared(part, heads, size) for part in parts)


def _compared(node: ast.expr, heads: str, size: str) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))
    ):
        return False
    return {ast.unparse(node.left), ast.unparse(node.comparators[0])} == {heads, size}
