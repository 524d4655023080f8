"""A switch of one part of what must all change: no way out by itself.

vllm's beam parser warns unless an early exit takes it first, and the exit needs all of
`constrained_tools is None and output is None and not tools_forbidden and not
always_constrain`; `VLLM_BEAM_ALWAYS_CONSTRAIN_OUTPUT` decides only `always_constrain`.
"Change the variable (so that all four hold)" promises what the switch cannot give. A
setting named without a value (only "change it") whose names reach some but not all of
the parts of an `or` that must all be false is not offered.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView
from errdex.extract.conditions import dotted_names
from errdex.link.expression_texts import parse_expression

__all__ = ["decides_one_part"]


def decides_one_part(condition: ConditionView, action: KnobAction, facts: Facts) -> bool:
    """Whether `action` names a setting, with no value, that decides only some parts of
    the `or` the condition holds as (each part must become false)."""
    if not action.vague:
        return False
    node = parse_expression(condition.text)
    if node is None:
        return False
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or)):
        return False
    knob = next((k for k in facts.knobs if k.name == action.knob), None)
    if knob is None or knob.behind is None:
        return False
    bound = {b.name: b.value for b in facts.bindings}
    reached = [_reads(part, knob.behind, bound) for part in node.values]
    return any(reached) and not all(reached)


def _reads(part: ast.expr, behind: str, bound: dict[str, str]) -> bool:
    """Whether the part reads the knob's name, itself, an object holding it (`mm_config`
    of `mm_config.mm_encoder_only`: set when the field is), or a local bound to it."""
    for name in dotted_names(part):
        if name == behind or name.startswith(behind + ".") or behind.startswith(name + "."):
            return True
        value = bound.get(name)
        if value is not None and _names(value, behind):
            return True
    return False


def _names(text: str, behind: str) -> bool:
    """Whether source text reads the name `behind` (or a field of it) as a whole name:
    `always` is not read by `always_constrain`, nor `tools` by `constrained_tools`."""
    return re.search(rf"(?<![\w.]){re.escape(behind)}(?!\w)", text) is not None
