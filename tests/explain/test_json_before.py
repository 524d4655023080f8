"""The "before" line of a JSON-valued flag's fix gives each key it changes a value the check
refuses: a yes/no key turned, a section whose class requires no key as `{}`; a key with no
such value known gets no line (never `"VALUE"` where a list, a number or a section is
read). A section the path needs given is kept in both lines of another flag's fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.fix_forms import command_fix
from errdex.explain.page import Knob
from errdex.facts import KnobKind
from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        import json
        from dataclasses import dataclass


        @dataclass
        class SparseConfig:
            buffer_size: int | None = None
            mirror: bool = True


        @dataclass
        class AttentionConfig:
            sparse_config: SparseConfig | None = None
            fast: bool = False
            sizes: list[int] | None = None


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
    fixes = _fixes(eng, "sizes are no longer read")
    assert not any("VALUE" in before for before, _ in fixes), fixes


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
