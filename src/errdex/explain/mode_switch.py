"""A switch that makes the function return before a failing sum: it hides the error.

"nnodes must be divisible by the number of data parallel node groups" is raised when
`self.nnodes % data_parallel_node_size != 0`, after an early return taken under
`--data-parallel-external-lb`. The flag skips the check, it does not make the numbers agree:
it is another launch mode, with requirements of its own, and the numbers the message names
stay as they are. When the check that fails is arithmetic over a setting the page knows, a
switch that turns on such an early return is no way out: it is said as a switch that would
only hide the error, and the settings in the arithmetic are the ways out.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.first_actions import first_action
from errdex.explain.hiding_flags import last_resort
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView, Solution
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

__all__ = ["hiding_switch"]

_ARITHMETIC = (ast.Mod, ast.FloorDiv, ast.Div, ast.Mult, ast.Add, ast.Sub)


def hiding_switch(
    condition: ConditionView,
    action: KnobAction,
    conditions: list[ConditionView],
    facts: Facts,
) -> Solution | None:
    """The switch as a solution that hides the error, when `action` turns on an early
    return (`condition`) before a failing check of `conditions` that is arithmetic over a
    setting; None otherwise. `conditions` are the page's open conditions (`ways_out`), one
    list a page: whether they hold such a check is worked out once a page."""
    if condition.kind is not ConditionKind.EARLY_EXIT or action.drops:
        return None
    if not facts.once("mode_switch.sum", lambda: _setting_sum(conditions, facts)):
        return None
    text = action.text.rstrip(".") + ":"
    return last_resort(text, condition, "returns before the check", facts)


def _setting_sum(conditions: list[ConditionView], facts: Facts) -> bool:
    """Whether a check of the path (no early return) compares arithmetic over names, one
    of them decided by a setting of the page."""
    for condition in conditions:
        if condition.kind is ConditionKind.EARLY_EXIT or not _compares_sum(condition.text):
            continue
        if first_action(condition, facts) is not None:
            return True
    return False


def _compares_sum(text: str) -> bool:
    node = parse_expression(text)
    if not isinstance(node, ast.Compare):
        return False
    return any(
        isinstance(sub, ast.BinOp) and isinstance(sub.op, _ARITHMETIC)
        for side in (node.left, *node.comparators)
        for sub in ast.walk(side)
    )
