"""The size flag of a parallel group on a model's remainder checks
(`explain.group_size_actions`, through `knob_actions.knob_action`)."""

from __future__ import annotations

from errdex.explain.knob_actions import knob_action
from errdex.explain.page import ConditionView, Knob
from errdex.facts import ConditionKind, KnobKind

SIZE = Knob(
    name="--tensor-parallel-size",
    kind=KnobKind.FLAG,
    behind="tp_size",
    via="the local `tp_size` = `get_tensor_model_parallel_world_size()` (line 3)",
    group_size=True,
)


def _action(text: str) -> str | None:
    view = ConditionView(text=text, test=text, kind=ConditionKind.ASSERT, line=5, holds=False)
    action = knob_action(view, [SIZE])
    return action.text if action is not None else None


def test_a_remainder_of_the_kv_heads_takes_a_size_that_divides_them() -> None:
    assert _action("self.total_num_kv_heads % tp_size != 0") == (
        "Pass `--tensor-parallel-size` with a size that divides `self.total_num_kv_heads`"
    )
    # the branch's own comparison is no way out on its own: the other branch checks too
    assert _action("self.total_num_kv_heads > tp_size and self.total_num_kv_heads % tp_size != 0")
    assert _action("self.total_num_kv_heads >= tp_size") is None


def test_the_size_over_the_kv_heads_takes_a_multiple_of_them() -> None:
    assert _action("tp_size % config.num_key_value_heads != 0") == (
        "Pass `--tensor-parallel-size` with a multiple of `config.num_key_value_heads`"
    )


def test_the_attention_heads_and_other_tests_of_the_size_name_nothing() -> None:
    # the configuration checks the model's attention heads against the flag first
    assert _action("self.total_num_heads % tp_size != 0") is None
    assert _action("tp_size > 1") is None
    assert _action("self.hidden_size % tp_size != 0") is None
