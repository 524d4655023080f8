"""A flag compared with the other instance's own value of it: both launched with the same
value (`explain.peer_setting`, through `knob_actions.knob_action`)."""

from __future__ import annotations

from errdex.explain.knob_actions import knob_action
from errdex.explain.page import ConditionView, Knob
from errdex.facts import ConditionKind, KnobKind


def _knob(behind: str) -> Knob:
    return Knob(name="--shard-count", kind=KnobKind.FLAG, behind=behind, same_value=True)


def _action(text: str, behind: str = "self.shards") -> str | None:
    view = ConditionView(text=text, test=text, kind=ConditionKind.ASSERT, line=5, holds=False)
    action = knob_action(view, [_knob(behind)])
    return action.text if action is not None else None


def test_a_size_unequal_to_the_peers_launches_both_with_the_same_flag() -> None:
    # `if self.shards != remote_shards: raise ...` after a handshake
    assert _action("self.shards != remote_shards") == (
        "Launch this instance and the one it connects to with the same `--shard-count`: "
        "`self.shards` follows that flag here, and `remote_shards` is the other instance's "
        "value, which the check compares with it"
    )
    # the peer's value read from the message it sent, the local one in a local
    assert _matched("meta.remote_shards != local_shards", "local_shards")
    assert _matched("remote.shards != local.shards", "local.shards")


def test_sizes_that_must_divide_one_another_are_matched_too() -> None:
    assert _matched("self.shards % remote_shards != 0")
    assert _matched("peer_shards % self.shards")


def test_equal_values_that_fail_or_another_name_say_only_the_flag() -> None:
    # the check fails when both are the same: matching is no way out
    assert _action("self.shards == remote_shards") == (
        "Change the flag `--shard-count`, which `self.shards` follows"
    )
    # a value of another name, or a local compared with a local, is no peer's setting
    assert _vague("self.shards != remote_blocks")
    assert _vague("self.shards != other_shards")
    assert _vague("remote.shards != remote_shards", "remote.shards")


def _vague(text: str, behind: str = "self.shards") -> bool:
    return (_action(text, behind) or "").startswith("Change the flag")


def _matched(text: str, behind: str = "self.shards") -> bool:
    return (_action(text, behind) or "").startswith("Launch this instance")
