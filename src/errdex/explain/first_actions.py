"""The first action of a condition's settings: which setting is behind the condition (or
behind what its names stand for) and the value it takes, worked out once a page.

Asked by the solutions, the mode switches and the fixes' held settings alike. A variable
that must list a name says the name (`env_members`); a name compared with a literal gets
that value, not "change it"; through an attribute set to a comparison, only the value that
makes it pass; a group size's check under a comparison of the heads with the size also
says the other branch's way (`group_size_branches`).
"""

from __future__ import annotations

from errdex.explain.context import Facts
from errdex.explain.env_members import member_action
from errdex.explain.expanded import expanded, own_expanded
from errdex.explain.group_size_actions import above_count, either_way, fewer_heads
from errdex.explain.group_size_branches import other_branch
from errdex.explain.knob_actions import KnobAction, knob_action
from errdex.explain.knob_types import json_valued
from errdex.explain.literal_bindings import with_literals
from errdex.explain.literal_members import with_members
from errdex.explain.page import ConditionView
from errdex.facts import KnobKind
from errdex.linked_facts import is_own_test_via


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
    if action is None and any(k.group_size for k in facts.knobs):
        # neither the size nor the other count divides the other: either way passes; the
        # size above another count of the model: one at most that count
        found = (
            either_way(condition, facts.knobs, facts.conditions)
            or fewer_heads(condition, facts.knobs, facts.conditions)
            or above_count(condition, facts.knobs, facts.conditions, facts.site_function())
        )
        return KnobAction(*found) if found is not None else None
    if action is not None and any(k.group_size for k in facts.knobs):
        # a check under a comparison of the heads with the size: the other branch's way
        return other_branch(
            action, condition, facts.knobs, facts.conditions, facts.read, facts.site_function()
        )
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


def _whole_json(action: KnobAction, facts: Facts) -> bool:
    """Whether the action gives a value to a flag that takes a JSON object (`--spec-config`
    behind `method = config.spec_config.method`): the value is its field's, no value of the
    flag itself."""
    knob = next((k for k in facts.knobs if k.name == action.knob), None)
    return knob is not None and knob.kind == KnobKind.FLAG and json_valued(knob)
