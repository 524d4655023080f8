"""A key of a section of a JSON-valued flag's object (`type` of `dynamic_shapes_config`, a
`DynamicShapesConfig` in `CompilationConfig`): read through the flag's object
(`vllm_config.compilation_config.dynamic_shapes_config.type`), by a local or by `self.x`
its constructor set, the way out names that key nested under the section in the flag's
JSON (`FlagIndex._section_key`), with a value where a yes/no key's default gives one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, offered, page_with_message

from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        import enum
        from dataclasses import dataclass, field


        class ShapesType(enum.Enum):
            BACKED = "backed"
            UNBACKED = "unbacked"


        @dataclass
        class ShapesConfig:
            type: ShapesType = ShapesType.BACKED
            evaluate_guards: bool = False
            guards_seen: int = field(default=0, init=False)


        @dataclass
        class PassConfig:
            fuse_norm: bool = False


        @dataclass
        class CompilationConfig:
            mode: int = 0
            shapes_config: ShapesConfig = field(default_factory=ShapesConfig)
            pass_config: PassConfig = field(default_factory=PassConfig)
            extra: dict = field(default_factory=dict)


        @dataclass
        class EngineArgs:
            compilation_config: CompilationConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--compilation-config", type=str)
                return parser
        """,
    "eng/wrapper.py": """
        from eng.args import ShapesType


        class Wrapper:
            def __init__(self, vllm_config):
                self.evaluate_guards = (
                    vllm_config.compilation_config.shapes_config.evaluate_guards
                )
                ds_type = vllm_config.compilation_config.shapes_config.type
                if self.evaluate_guards:
                    assert ds_type != ShapesType.UNBACKED, "UNBACKED shapes add no guards"


        def fuse(vllm_config, dtype):
            if vllm_config.compilation_config.pass_config.fuse_norm and dtype is None:
                raise ValueError("norm fusion needs a dtype")


        def seen(vllm_config):
            if vllm_config.compilation_config.shapes_config.guards_seen > 3:
                raise ValueError("too many guards seen")


        def extra(vllm_config):
            if vllm_config.compilation_config.extra.fuse_norm:
                raise ValueError("an extra dict read as an object")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_key_of_a_section_is_named_nested_under_the_section(eng: Store) -> None:
    texts = [s.text for s in page_with_message(eng, "eng", "UNBACKED shapes").solutions]
    # the enum-valued key held by a local: named where it sits, with no value
    assert any(
        t.startswith(
            "Change `type` in `shapes_config` in the JSON of `--compilation-config`, "
            "which `ds_type` follows"
        )
        for t in texts
    ), texts
    # the yes/no key the constructor keeps on `self`: turned off by its default
    assert any(
        t.startswith("Pass `--compilation-config '")
        and '{"shapes_config": {"evaluate_guards": false}}' in t
        for t in texts
    ), texts


def test_a_yes_no_key_of_a_section_read_in_the_condition_is_turned_off(eng: Store) -> None:
    texts = [s.text for s in page_with_message(eng, "eng", "norm fusion needs").solutions]
    assert any(
        t.startswith('Pass `--compilation-config \'{"pass_config": {"fuse_norm": false}}\'`')
        for t in texts
    ), texts


def test_state_of_a_section_or_a_dict_s_attribute_is_no_nested_key(eng: Store) -> None:
    # a name the section's constructor does not take, and an attribute of a dict-valued
    # key (no section's class): no key of the JSON to write
    for message, instead in (
        (
            "too many guards seen",
            "Pass the argument `vllm_config` of `seen` with a "
            "`.compilation_config.shapes_config.guards_seen` at most `3`.",
        ),
        (
            "an extra dict read as an object",
            "Pass for the argument `vllm_config` of `extra` a value whose "
            "`compilation_config.extra.fuse_norm` is false (empty).",
        ),
    ):
        page = page_with_message(eng, "eng", message)
        texts = [s.text for s in page.solutions]
        assert not any('{"shapes_config"' in t or '{"extra"' in t for t in texts), texts
        assert not any("in `shapes_config` in the JSON" in t for t in texts), texts
        assert offered(page) == [instead]  # the argument's attribute, as for any check of one
