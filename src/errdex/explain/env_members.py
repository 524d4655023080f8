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
from errdex.explain.expanded import expanded, own_expanded
from errdex.explain.group_size_branches import other_branch
from errdex.explain.input_nodes import same_expression
from errdex.explain.knob_actions import KnobAction, knob_action
from errdex.explain.knob_types import json_valued
from errdex.explain.literal_bindings import with_literals
from errdex.explain.literal_members import with_members
from errdex.explain.page import ConditionView, Knob
from errdex.explain.plain import code
from errdex.extract.conditions import negate
from errdex.facts import KnobKind
from errdex.linked_facts import NAMED_IN_MESSAGE, is_own_test_via

_COMMAS = re.compile(r"\bcomma", re.I)


def first_action(condition: ConditionView, facts: Facts) -> KnobAction | None:
    """The action of the first setting behind the condition (or behind what its names stand
    for); a variable that must list a name says the name, not only "change it". Worked out
    once a page for each condition (the solutions, the mode switches and the fixes' held
    settings all ask)."""
    key = f"first_action:{condition.kind}:{condition.holds}:{condition.line}:{condition.text}"
    return facts.once(key, lambda: _first_action(condition, facts))


def _first_action(condition: ConditionView, facts: Facts) -> KnobAction | None:
    action = knob_action(with_members(condition, facts), facts.knobs) or knob_action(
        condition, facts.knobs
    )
    if action is not None and action.vague:
        # the name compared with holds a literal: the setting gets the value, not "change it"
        valued = knob_action(with_literals(condition, facts), facts.knobs)
        if valued is not None and not valued.vague and not _whole_json(valued, facts):
            action = valued
    if action is None or action.vague:
        action = member_action(condition, facts) or action
    action = action or _expanded_action(condition, facts)
    if action is not None and any(k.group_size for k in facts.knobs):
        # a check under a comparison of the heads with the size: the other branch's way
        return other_branch(action, condition, facts.knobs, facts.conditions)
    return action


def _expanded_action(condition: ConditionView, facts: Facts) -> KnobAction | None:
    """The action of the setting behind what the condition's names stand for. Through an
    attribute set to a comparison (`self.native = backend in NATIVE`), only with the value
    that makes it pass: "change the flag" there names no way out (`link.own_tests`)."""
    action = knob_action(expanded(condition, facts), facts.knobs)
    if action is not None and (not action.vague or not _through_test(action, facts)):
        return action
    own = own_expanded(condition, facts)
    if own is condition:
        return None
    valued = knob_action(with_literals(own, facts), facts.knobs)
    if valued is not None and not valued.vague and not _whole_json(valued, facts):
        return valued
    return None


def _through_test(action: KnobAction, facts: Facts) -> bool:
    return any(k.name == action.knob and is_own_test_via(k.via) for k in facts.knobs)


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
        parts = way.values if isinstance(way, ast.BoolOp) and isinstance(way.op, ast.And) else [way]
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


def _whole_json(action: KnobAction, facts: Facts) -> bool:
    """Whether the action gives a value to a flag that takes a JSON object (`--spec-config`
    behind `method = config.spec_config.method`): the value is its field's, no value of the
    flag itself."""
    knob = next((k for k in facts.knobs if k.name == action.knob), None)
    return knob is not None and knob.kind == KnobKind.FLAG and json_valued(knob)
