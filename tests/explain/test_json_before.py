"""The "before" line of a JSON-valued flag's fix gives each key it changes a value the check
refuses: a yes/no key turned, a section whose class requires no key as `{}`; a key with no
such value known gets no line (never `"VALUE"` where a list, a number or a section is
read). A section the path needs given is kept in both lines of another flag's fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.fix_forms import command_fix, setting_fix
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView, Knob
from errdex.facts import ConditionKind, KnobKind
from errdex.linked_facts import EMPTY_SECTION
from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        import json
        from dataclasses import dataclass

        from pydantic import BaseModel


        class PoolConfig(BaseModel):
            size: int = 1


        @dataclass
        class NamedConfig:
            name: str


        @dataclass
        class LaneConfig(NamedConfig):
            width: int = 1


        @dataclass
        class SparseConfig:
            buffer_size: int | None = None
            mirror: bool = True


        @dataclass
        class AttentionConfig:
            sparse_config: SparseConfig | None = None
            fast: bool = False
            sizes: list[int] | None = None
            width: int | None = None
            shared: bool | None = None
            tiled: bool = False
            depth: int = 1
            pool_config: PoolConfig | None = None
            lane_config: LaneConfig | None = None


        @dataclass
        class CompileConfig:
            warmup: bool = True


        @dataclass
        class EngineArgs:
            attention_config: AttentionConfig | None = None
            compile_config: CompileConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--attention-config", type=json.loads)
                parser.add_argument("--compile-config", type=json.loads)
                return parser
        """,
    "eng/check.py": """
        def check(vllm_config):
            if vllm_config.attention_config.fast:
                raise ValueError("fast attention is gone")
            if vllm_config.attention_config.sizes is not None:
                raise ValueError("sizes are no longer read")
            if vllm_config.attention_config.sparse_config is not None:
                if vllm_config.compile_config.warmup:
                    raise ValueError("sparse attention does not support warmup")
            ac = vllm_config.attention_config
            if ac.sparse_config is not None:
                if ac.tiled:
                    raise ValueError("sparse attention cannot tile")
            if ac.width not in (None, 1):
                raise ValueError("wide attention is gone")
            if ac.shared is not None:
                raise ValueError("shared is gone")
            if ac.depth not in (1, 3):
                raise ValueError("deep attention is gone")
            if ac.sparse_config:
                raise ValueError("sparse attention is gone")
            if ac.pool_config is not None:
                raise ValueError("pools are gone")
            if ac.lane_config is not None:
                raise ValueError("lanes are gone")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("before"), "eng", ENG)


def _fixes(store: Store, message: str) -> list[tuple[str, str]]:
    page = page_with_message(store, "eng", message)
    fixes = [s.fix for s in page.solutions if s.fix is not None]
    return [(f.before, f.after) for f in fixes]


def test_a_yes_no_key_read_through_the_flags_object_is_turned_before(eng: Store) -> None:
    assert (
        "eng serve MODEL_TAG --attention-config '{\"fast\": true}'",
        "eng serve MODEL_TAG --attention-config '{\"fast\": false}'",
    ) in _fixes(eng, "fast attention is gone")


def test_no_text_stands_where_a_list_is_read(eng: Store) -> None:
    page = page_with_message(eng, "eng", "sizes are no longer read")
    (left,) = [s for s in page.solutions if "'{\"sizes\": null}'" in s.text]
    assert left.fix is None, left.fix


def test_a_section_that_requires_no_key_is_given_as_an_empty_object(eng: Store) -> None:
    fixes = _fixes(eng, "sparse attention does not support warmup")
    # its own fix: the section given, then left None
    assert (
        "eng serve MODEL_TAG --attention-config '{\"sparse_config\": {}}'",
        "eng serve MODEL_TAG --attention-config '{\"sparse_config\": null}'",
    ) in fixes
    # another flag's fix: the section the check also needs, in both lines
    (warmup,) = [f for f in fixes if "--compile-config" in f[1]]
    assert all("--attention-config '{\"sparse_config\": {}}'" in line for line in warmup), warmup


def test_a_number_the_check_refuses_and_a_text_of_the_users_own() -> None:
    knob = Knob(name="--spec-config", kind=KnobKind.FLAG, command="eng serve MODEL_TAG")
    number = command_fix(knob, repr({"tokens": 1}), "note.", others=(None, 1, 3))
    assert number is not None
    assert number.before == "eng serve MODEL_TAG --spec-config '{\"tokens\": 4}'"
    text = command_fix(knob, repr({"method": "eagle"}), "note.")
    assert text is not None and text.before.endswith('\'{"method": "VALUE"}\'')
    assert text.note == "note. `MODEL_TAG`, `VALUE` stand for your own values."


def test_a_section_the_path_needs_is_kept_in_a_fix_of_another_key_of_its_flag(eng: Store) -> None:
    # the section None (its default) never reaches the check: given as `{}` in both lines
    assert (
        'eng serve MODEL_TAG --attention-config \'{"sparse_config": {}, "tiled": true}\'',
        'eng serve MODEL_TAG --attention-config \'{"sparse_config": {}, "tiled": false}\'',
    ) in _fixes(eng, "sparse attention cannot tile")


def test_a_number_key_fixed_with_null_is_given_a_number_it_refuses(eng: Store) -> None:
    # `not in (None, 1)`: the fix leaves the key None, the "before" gives one past 1
    assert (
        "eng serve MODEL_TAG --attention-config '{\"width\": 2}'",
        "eng serve MODEL_TAG --attention-config '{\"width\": null}'",
    ) in _fixes(eng, "wide attention is gone")


def test_a_yes_no_key_left_none_is_given_true_before(eng: Store) -> None:
    assert (
        "eng serve MODEL_TAG --attention-config '{\"shared\": true}'",
        "eng serve MODEL_TAG --attention-config '{\"shared\": null}'",
    ) in _fixes(eng, "shared is gone")


def test_a_section_of_an_outside_base_requiring_no_key_is_given_as_an_empty_object(
    eng: Store,
) -> None:
    # pydantic's `BaseModel` as the base adds no key the section requires
    assert (
        "eng serve MODEL_TAG --attention-config '{\"pool_config\": {}}'",
        "eng serve MODEL_TAG --attention-config '{\"pool_config\": null}'",
    ) in _fixes(eng, "pools are gone")


def test_a_section_whose_base_requires_a_key_is_not_given_empty(eng: Store) -> None:
    assert not any("{}" in before for before, _ in _fixes(eng, "lanes are gone"))


def test_a_number_past_every_value_a_not_in_accepts(eng: Store) -> None:
    assert (
        "eng serve MODEL_TAG --attention-config '{\"depth\": 4}'",
        "eng serve MODEL_TAG --attention-config '{\"depth\": 1}'",
    ) in _fixes(eng, "deep attention is gone")


def test_a_section_tested_for_truth_gets_no_false(eng: Store) -> None:
    page = page_with_message(eng, "eng", "sparse attention is gone")
    assert not [s for s in page.solutions if '"sparse_config": false' in s.text], page.solutions


def test_the_python_call_takes_the_same_before_as_the_command_line() -> None:
    knob = Knob(
        name="--attention-config",
        kind=KnobKind.FLAG,
        behind="vllm_config.attention_config",
        json_key="fast",
        key_default="False",
        key_defaults=(("fast", "False"), ("sparse_config", EMPTY_SECTION)),
        call="eng.LLM(model)",
    )
    test = "ac.fast"
    condition = ConditionView(text=test, test=test, kind=ConditionKind.IF, holds=True, line=9)
    action = KnobAction(
        "Pass `--attention-config '{\"fast\": false}'`",
        "--attention-config",
        keyword=repr({"fast": False}),
        kept=(("sparse_config", {}),),
    )
    fix = setting_fix(action, condition, [knob])
    assert fix is not None
    assert "attention_config={'sparse_config': {}, 'fast': True}" in fix.before
    assert "attention_config={'sparse_config': {}, 'fast': False}" in fix.after
