"""An environment variable that must list a name: `"x" in envs.VLLM_PLUGINS`.

A variable read as a list (`VLLM_PLUGINS`, names separated by commas) is tested for one
member: `is_enabled = envs.VLLM_PLUGINS is not None and "lora_hf_hub_resolver" in
envs.VLLM_PLUGINS`, and the site is on the path where that is false. The way out is the
variable set with that name among its values (`VLLM_PLUGINS=lora_hf_hub_resolver`), not
"change the variable". Only where every part the way out needs is the variable set, or
the name in it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from errdex.explain.context import Facts
from errdex.explain.expanded import expanded
from errdex.explain.input_nodes import same_expression
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView, Knob
from errdex.explain.plain import code
from errdex.extract.conditions import negate
from errdex.extract.shapes import and_parts
from errdex.facts import KnobKind
from errdex.linked_facts import NAMED_IN_MESSAGE

_COMMAS = re.compile(r"\bcomma", re.I)


def member_action(condition: ConditionView, facts: Facts) -> KnobAction | None:
    """ "Set `VLLM_PLUGINS` to a list that includes `lora_hf_hub_resolver`", or None. The
    condition is read with its locals expanded, and only when a variable may be such a
    list."""
    knobs = [
        (k, behind)
        for k in facts.knobs
        if k.kind == KnobKind.ENV
        and (behind := k.behind)
        and k.via != NAMED_IN_MESSAGE
        and k.same_value
    ]
    if not knobs:
        return None
    try:
        node = ast.parse(expanded(condition, facts).text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    # what must hold to avoid the site: the held test's other outcome; of an `or`, any part
    needed = negate(node)
    ways = (
        needed.values
        if isinstance(needed, ast.BoolOp) and isinstance(needed.op, ast.Or)
        else [needed]
    )
    for way in ways:
        parts = and_parts(way)
        for knob, behind in knobs:
            members = [m for p in parts if (m := _member(p, behind)) is not None]
            if len(members) != 1 or not all(
                _member(p, behind) is not None or _is_set(p, behind) for p in parts
            ):
                continue
            action = _action(knob, members[0])
            # of several ways, the one it takes: the reason says that part alone
            return replace(action, part=ast.unparse(negate(way))) if len(ways) > 1 else action
    return None


def _member(node: ast.expr, behind: str) -> str | None:
    """`"x" in VAR`: the literal `x`."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not isinstance(node.ops[0], ast.In):
        return None
    left, right = node.left, node.comparators[0]
    if not (isinstance(left, ast.Constant) and isinstance(left.value, str) and left.value):
        return None
    if not same_expression(right, behind) or not re.fullmatch(r"[\w.:/-]+", left.value):
        return None
    return left.value


def _is_set(node: ast.expr, behind: str) -> bool:
    """`VAR is not None`, `VAR`: the variable given at all."""
    if same_expression(node, behind):
        return True
    return (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.IsNot)
        and same_expression(node.left, behind)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    )


def _action(knob: Knob, member: str) -> KnobAction:
    name = knob.name
    listed = _COMMAS.search(knob.doc or "") is not None
    if listed:
        text = (
            f"Set `{name}` to a comma-separated list that includes {code(member)}, with "
            "any other names you load after a comma"
        )
    else:
        text = f"Set `{name}` to a value that includes {code(member)}"
    return KnobAction(text=text, knob=name, before=f"unset {name}", after=f"export {name}={member}")
