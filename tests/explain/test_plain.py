"""Conditions in plain words, and what a knob must be set to for a condition to be false."""

from __future__ import annotations

import pytest

from errdex.explain.fix_forms import envcommand_fix
from errdex.explain.knob_actions import knob_action
from errdex.explain.page import ConditionView, Knob
from errdex.explain.plain import listed, plain_condition, your_values
from errdex.facts import Condition, ConditionKind, KnobKind


def words(text: str, kind: ConditionKind = ConditionKind.IF) -> str | None:
    return plain_condition(Condition(test=text, kind=kind, holds=True, line=1, text=text))


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("not self.use_v2_model_runner", "`self.use_v2_model_runner` is false"),
        ("self.enforce_eager", "`self.enforce_eager` is true"),
        ("unsupported", "`unsupported` is set (not empty, zero or None)"),
        ("model_config is None", "`model_config` is None"),
        ("x is not None", "`x` is not None"),
        ("envs.VLLM_X is False", "`envs.VLLM_X` is False"),
        ("size > 1", "`size` is greater than `1`"),
        ("arch in SUPPORTED", "`arch` is one of `SUPPORTED`"),
        ("'cuda' not in device", "`'cuda'` does not occur in `device`"),
        ("len(items) == 0", "`items` is empty"),
        ("not isinstance(x, int)", "`x` is not an instance of `int`"),
        ("hasattr(m, 'forward')", "`m` has attribute `'forward'`"),
        ("a and not b", "`a` is set (not empty, zero or None) and `b` is empty, zero or None"),
        (
            "any(arch in UNSUPPORTED for arch in architectures)",
            "for some `arch` in `architectures`: `arch` is one of `UNSUPPORTED`",
        ),
        ("check()", "`check()` returns a true value"),
    ],
)
def test_plain_words(text: str, plain: str) -> None:
    assert words(text) == plain


def test_loops_and_excepts_say_where_the_code_is() -> None:
    assert words("for x in items", ConditionKind.LOOP) == "for an item `x` of `items`"
    assert words("except OSError as e", ConditionKind.EXCEPT) == "an exception `OSError` was caught"


def test_shapes_without_plain_words_keep_their_python() -> None:
    assert words("a[0] + b") is None


ENV = Knob(name="APP_X", kind=KnobKind.ENV, behind="envs.APP_X", same_value=True, value_type="bool")
FLAG = Knob(
    name="--eager", kind=KnobKind.FLAG, behind="cfg.eager", same_value=True, value_type="bool"
)
SIZE = Knob(name="--size", kind=KnobKind.FLAG, behind="cfg.size", same_value=True, value_type="int")


def action(text: str, knob: Knob) -> str | None:
    view = ConditionView(text=text, test=text, kind=ConditionKind.IF, holds=True, line=1)
    found = knob_action(view, [knob])
    return found.text if found else None


@pytest.mark.parametrize(
    ("text", "knob", "expected"),
    [
        ("not envs.APP_X", ENV, "Set `APP_X=1`"),
        ("envs.APP_X", ENV, "Set `APP_X=0`"),
        ("envs.APP_X is False", ENV, "Set `APP_X=1` or leave it unset"),
        ("envs.APP_X is not None", ENV, "Unset `APP_X`"),
        ("not cfg.eager", FLAG, "Pass `--eager`"),
        ("cfg.eager", FLAG, "Do not pass `--eager`"),
        ("cfg.size > 1", SIZE, "Pass `--size` with a value at most 1"),
        ("cfg.size != 4", SIZE, "Pass `--size 4`"),
        ("other > 1 and cfg.eager", FLAG, "Do not pass `--eager`"),
        ("other > 1", FLAG, None),
    ],
)
def test_knob_actions(text: str, knob: Knob, expected: str | None) -> None:
    assert action(text, knob) == expected


def test_a_knob_the_name_does_not_take_as_is_is_named_without_a_value() -> None:
    computed = Knob(name="APP_X", kind=KnobKind.ENV, behind="self.fast", same_value=False)
    assert action("not self.fast", computed) == (
        "Change the environment variable `APP_X`, which `self.fast` follows"
    )


def test_a_set_s_members_are_named_in_the_order_the_code_writes_them() -> None:
    # a set's repr follows string hashes, different in each process: pages must not
    names = ["random", "random-mm", "sharegpt", "sonnet", "burstgpt", "hf", "custom", None]
    written = "{" + ", ".join(map(repr, names)) + "}"
    mode = Knob(name="--mode", kind=KnobKind.FLAG, behind="cfg.mode", same_value=True)
    assert action(f"cfg.mode in {written}", mode) == f"Pass `--mode` with a value outside {written}"


def test_your_values_names_each_word_once_and_agrees_with_their_count() -> None:
    assert your_values([]) == ""
    assert your_values(["REQUEST", "REQUEST"]) == "`REQUEST` stands for your own value."
    assert your_values(["URL", "DATA", "URL"]) == "`URL`, `DATA` stand for your own values."
    # a command naming one value of the user's twice: a setting's fix says it once
    command = "eng serve MODEL_TAG --served-model-name MODEL_TAG"
    fix = envcommand_fix(command, "export ENG_X=1", "unset ENG_X", "")
    assert fix is not None
    assert fix.note.endswith(" `MODEL_TAG` stands for your own value.")


@pytest.mark.parametrize(
    ("words", "last", "expected"),
    [
        ([], "and", ""),
        (["`a`"], "or", "`a`"),
        (["`a`", "`b`"], "or", "`a` or `b`"),
        (["`a`", "`b`", "`c`"], "and", "`a`, `b` and `c`"),
    ],
)
def test_a_list_in_a_sentence_has_its_last_word_before_the_last(
    words: list[str], last: str, expected: str
) -> None:
    assert listed(words, last) == expected
