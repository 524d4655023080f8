"""The size flag of a parallel group on a model's remainder checks
(`explain.group_size_actions`, through `knob_actions.knob_action`)."""

from __future__ import annotations

import ast
import textwrap

from msgspec.structs import replace

from errdex.explain.group_size_actions import above_count, fewer_heads, fewer_than
from errdex.explain.group_size_branches import other_branch
from errdex.explain.knob_actions import knob_action
from errdex.explain.page import ConditionView, Knob
from errdex.facts import ConditionKind, KnobKind
from errdex.reading_facts import SourceRead

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
    # the configuration checks the attention heads first: the multiple must divide them
    assert _action("tp_size % config.num_key_value_heads != 0") == (
        "Pass `--tensor-parallel-size` with a multiple of `config.num_key_value_heads` "
        "that divides the attention heads"
    )


def test_a_remainder_tested_for_truth_is_the_same_check() -> None:
    # `if self.total_num_kv_heads % tp_size: raise ...`
    assert _action("self.total_num_kv_heads % tp_size") == (
        "Pass `--tensor-parallel-size` with a size that divides `self.total_num_kv_heads`"
    )
    assert _action("self.total_num_kv_heads >= tp_size and tp_size % self.total_num_kv_heads")
    assert _action("self.total_num_heads % tp_size") is None


def _held(text: str, line: int, kind: ConditionKind = ConditionKind.IF) -> ConditionView:
    return ConditionView(text=text, test=text, kind=kind, line=line, holds=True)


def _aside(
    check: str,
    held: list[ConditionView],
    kind: ConditionKind = ConditionKind.ASSERT,
    read: SourceRead | None = None,
) -> str | None:
    view = ConditionView(text=check, test=check, kind=kind, line=5, holds=False)
    action = knob_action(view, [SIZE])
    assert action is not None
    return other_branch(action, view, [SIZE], [*held, view], read or SourceRead()).aside


def test_a_check_under_the_heads_compared_with_the_size_says_the_other_branch() -> None:
    # `if heads >= tp_size: assert heads % tp_size == 0 else: assert tp_size % heads == 0`
    above = _aside("num_kv_heads % tp_size != 0", [_held("num_kv_heads >= tp_size", 4)])
    assert above == (
        "Or pass a multiple of `num_kv_heads` that divides the attention heads, above "
        "`num_kv_heads`: the test at line 4 then takes its other branch."
    )
    # the comparison within the check itself (`if kv > tp_size and kv % tp_size != 0`)
    first_test = "num_kv_heads > tp_size and num_kv_heads % tp_size != 0"
    assert _aside(first_test, [], ConditionKind.IF)
    # above the heads, another setting may need the size where it is: not offered lower
    below = _aside("tp_size % num_kv_heads != 0", [_held("not num_kv_heads >= tp_size", 4)])
    assert below is None


def test_no_other_branch_where_it_raises() -> None:
    # `if heads >= tp_size: assert heads % tp_size == 0 else: raise ValueError(...)`: above
    # the heads, the size leads into the else's error
    held = [_held("num_kv_heads >= tp_size", 4)]
    raising = SourceRead(other_side={4: (False, True)})
    assert _aside("num_kv_heads % tp_size != 0", held, read=raising) is None
    # its body failing is not the way taken
    assert _aside(
        "num_kv_heads % tp_size != 0", held, read=SourceRead(other_side={4: (True, False)})
    )


def test_no_other_branch_without_the_comparison_or_after_an_early_exit() -> None:
    assert _aside("num_kv_heads % tp_size != 0", []) is None
    assert _aside("num_kv_heads % tp_size != 0", [_held("other_kv_heads >= tp_size", 4)]) is None
    # `if heads < tp_size: raise ...` before: its other side leaves the function
    early = _held("not num_kv_heads < tp_size", 4, ConditionKind.EARLY_EXIT)
    assert _aside("num_kv_heads % tp_size != 0", [early]) is None


def test_the_attention_heads_and_other_tests_of_the_size_name_nothing() -> None:
    # the configuration checks the model's attention heads against the flag first
    assert _action("self.total_num_heads % tp_size != 0") is None
    assert _action("tp_size > 1") is None
    assert _action("self.hidden_size % tp_size != 0") is None


def test_a_size_kept_on_the_object_is_read_as_the_local_is() -> None:
    # `self.tp_size = get_tensor_model_parallel_world_size()` (`KnobIndex.assigned_size`)
    kept = replace(SIZE, behind="self.tp_size")
    view = ConditionView(
        text="self.total_num_kv_heads % self.tp_size != 0",
        test="self.total_num_kv_heads % self.tp_size != 0",
        kind=ConditionKind.ASSERT,
        line=5,
        holds=False,
    )
    action = knob_action(view, [kept])
    assert action is not None
    assert action.text == (
        "Pass `--tensor-parallel-size` with a size that divides `self.total_num_kv_heads`"
    )
    # another object's attribute of the same name is not the size
    other = replace(view, text="self.total_num_kv_heads % other.tp_size != 0")
    assert knob_action(other, [kept]) is None


def test_kv_heads_fewer_than_the_size_take_a_size_that_divides_them() -> None:
    def view(text: str, line: int, kind: ConditionKind = ConditionKind.ELIF) -> ConditionView:
        return ConditionView(text=text, test=text, kind=kind, line=line, holds=True)

    # `elif self.total_num_kv_heads < tp_size: raise ValueError(...)`, the site's own test
    own = view("self.total_num_kv_heads < tp_size", 9)
    earlier = view("self.total_num_heads % tp_size == 0", 4, ConditionKind.IF)
    assert fewer_heads(own, [SIZE], [earlier, own]) == (
        "Pass `--tensor-parallel-size` with a size that divides `self.total_num_kv_heads`",
        "--tensor-parallel-size",
    )
    # `assert tp_size <= num_kv_heads`, failing as `tp_size > num_kv_heads`
    failing = view("tp_size > num_kv_heads", 9, ConditionKind.ASSERT)
    assert fewer_heads(failing, [SIZE], [failing]) is not None
    # a branch on the way to another check; the attention heads; the other way round
    assert fewer_heads(own, [SIZE], [own, view("tp_size % self.total_num_kv_heads", 11)]) is None
    heads = view("self.total_num_heads < tp_size", 9)
    assert fewer_heads(heads, [SIZE], [heads]) is None
    more = view("self.total_num_kv_heads > tp_size", 9)
    assert fewer_heads(more, [SIZE], [more]) is None


def test_no_other_branch_where_the_function_raises_below_the_heads() -> None:
    # `if kv > tp_size and kv % tp_size != 0: raise ...` then `elif kv < tp_size: raise ...`:
    # above the heads, the `elif` raises
    source = textwrap.dedent(
        """
        def __init__(self, num_kv_heads):
            if num_kv_heads > tp_size and num_kv_heads % tp_size != 0:
                raise ValueError("not divisible")
            elif num_kv_heads < tp_size:
                raise ValueError("replication is not supported")
        """
    )
    (function,) = ast.parse(source).body
    assert isinstance(function, ast.FunctionDef)
    check = "num_kv_heads > tp_size and num_kv_heads % tp_size != 0"
    view = ConditionView(text=check, test=check, kind=ConditionKind.IF, line=3, holds=True)
    action = knob_action(view, [SIZE])
    assert action is not None
    assert other_branch(action, view, [SIZE], [view], SourceRead()).aside
    assert other_branch(action, view, [SIZE], [view], SourceRead(), function).aside is None


def test_a_strict_comparison_gives_its_smaller_side_first() -> None:
    # read by `fewer_heads` (the site's own test) and `other_branch` (a test that raises)
    def sides(text: str) -> tuple[str, str] | None:
        found = fewer_than(ast.parse(text, mode="eval").body)
        return None if found is None else (ast.unparse(found[0]), ast.unparse(found[1]))

    assert sides("kv < self.tp_size") == ("kv", "self.tp_size")
    assert sides("self.tp_size > kv") == ("kv", "self.tp_size")
    assert sides("kv <= tp_size") is None
    assert sides("kv < tp_size < 8") is None
    assert fewer_than(None) is None


def test_a_size_above_another_count_takes_one_at_most_that_count() -> None:
    # `if self.tp_size > config.num_experts: raise ValueError(...)`, the site's own test
    kept = replace(SIZE, behind="self.tp_size")
    source = textwrap.dedent(
        """
        def __init__(self, config):
            self.tp_size = get_tensor_model_parallel_world_size()
            if self.tp_size > config.num_experts:
                raise ValueError("more ranks than experts")
            self.experts = config.num_experts
        """
    )
    (function,) = ast.parse(source).body
    assert isinstance(function, ast.FunctionDef)
    own = _held("self.tp_size > config.num_experts", 4)
    assert above_count(own, [kept], [own], function) == (
        "Pass `--tensor-parallel-size` with a size at most `config.num_experts` "
        "that divides the attention heads",
        "--tensor-parallel-size",
    )
    # written the other way round
    mirrored = _held("config.num_experts < self.tp_size", 4)
    assert above_count(mirrored, [kept], [mirrored], function) is not None


def test_no_count_above_the_size_where_another_check_or_rule_answers() -> None:
    kept = replace(SIZE, behind="self.tp_size")
    source = textwrap.dedent(
        """
        def __init__(self, config):
            if self.tp_size > config.groups:
                raise ValueError("more ranks than groups")
            assert config.groups % self.tp_size == 0
        """
    )
    (function,) = ast.parse(source).body
    assert isinstance(function, ast.FunctionDef)
    own = _held("self.tp_size > config.groups", 3)
    # a smaller size may fail the remainder check after it
    assert above_count(own, [kept], [own], function) is None
    (alone,) = ast.parse("def f(self, config):\n    if self.tp_size > config.groups: raise E").body
    assert isinstance(alone, ast.FunctionDef)

    def answer(text: str, kind: ConditionKind = ConditionKind.IF) -> tuple[str, str] | None:
        view = _held(text, 2, kind)
        return above_count(view, [kept], [view], alone)

    assert answer("self.tp_size > config.groups") is not None
    assert answer("self.tp_size > config.groups", ConditionKind.ASSERT) is None
    assert answer("self.tp_size > config.num_key_value_heads") is None  # `fewer_heads`'
    assert answer("self.tp_size > 1") is None  # no count of the model: a mode
    assert answer("self.tp_size < config.groups") is None  # the other way
    assert answer("self.tp_size >= config.groups") is None
    # a count a setting is behind too: the peer's size
    peer = replace(SIZE, name="--peer-size", behind="remote_tp_size", group_size=False)
    view = _held("self.tp_size > remote_tp_size", 2)
    assert above_count(view, [kept, peer], [view], alone) is None
    # a branch on the way to another check
    later = _held("self.experts % self.tp_size != 0", 5)
    assert above_count(own, [kept], [own, later], alone) is None
