"""A JSON-valued flag behind a local that holds one field of its object: leaving the flag out
leaves that field at its default, so "Do not pass the flag" is not drawn for it."""

from __future__ import annotations

from errdex.explain.knob_actions import knob_action
from errdex.explain.page import ConditionView, Knob
from errdex.facts import ConditionKind, KnobKind


def _action_text(via: str) -> str:
    knob = Knob(
        name="--kernel-config",
        kind=KnobKind.FLAG,
        behind="enable",
        via=via,
        same_value=True,
        value_type="KernelConfig",
    )
    condition = ConditionView(
        text="enable", test="enable", kind=ConditionKind.IF, holds=True, line=4
    )
    action = knob_action(condition, [knob])
    assert action is not None
    return action.text


def test_a_local_holding_a_field_of_the_flags_object_is_not_left_out() -> None:
    # `enable = worker.config.kernel_config.enable`: the field may default to true
    text = _action_text("the local `enable` = `worker.config.kernel_config.enable` (line 3)")
    assert not text.startswith("Do not pass"), text
    assert text.startswith("Change the flag `--kernel-config`"), text


def test_a_local_holding_the_flags_object_itself_may_be_left_out() -> None:
    text = _action_text("the local `enable` = `worker.config.kernel_config` (line 3)")
    assert text.startswith("Do not pass `--kernel-config`"), text
