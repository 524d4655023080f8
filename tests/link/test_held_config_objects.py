"""A configuration object held under a name of the function's own: a local bound to it, a
parameter annotated with its class, and a property of the class read through the object
(`KnobIndex._held`, `KnobIndex._through_named_property`, `link.settings_classes`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import KnobKind
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

# vllm's shape: plain flags default to `ParallelConfig`'s fields, `--speculative-config`
# takes a JSON object of `SpeculativeConfig`'s fields; a kernel has a `...Config` of its own
# with a field named like a flag.
CONFIG = """
    from dataclasses import dataclass


    @dataclass
    class ParallelConfig:
        enable_dbo: bool = False
        \"\"\"Dual batch overlap.\"\"\"
        ubatch_size: int = 0
        \"\"\"Microbatches.\"\"\"
        block_size: int = 16
        \"\"\"Tokens a block holds.\"\"\"

        @property
        def use_ubatching(self) -> bool:
            return self.enable_dbo or self.ubatch_size > 1

        @property
        def tokens_per_block(self) -> int:
            return self.block_size

        @property
        def uses_device(self) -> bool:
            return self.helper().ready


    @dataclass
    class SpeculativeConfig:
        method: str | None = None
        \"\"\"The speculative method.\"\"\"


    @dataclass
    class TileConfig:
        block_size: int = 128
        \"\"\"A kernel's tile.\"\"\"


    @dataclass
    class EngineArgs:
        speculative_config: dict | None = None
        enable_dbo: bool = ParallelConfig.enable_dbo
        ubatch_size: int = ParallelConfig.ubatch_size
        block_size: int = ParallelConfig.block_size

        def add_cli_args(parser):
            parser.add_argument("--speculative-config", type=str)
            parser.add_argument("--enable-dbo", action="store_true")
            parser.add_argument("--ubatch-size", type=int)
            parser.add_argument("--block-size", type=int)
"""

RUNNER = """
    from eng.config import SpeculativeConfig, TileConfig


    class Runner:
        def propose(self):
            spec = self.vllm_config.speculative_config
            if spec.method == "ngram":
                raise ValueError("ngram is not supported here")

        def sample(self, spec_config: SpeculativeConfig, tile_config: TileConfig):
            if spec_config.method == "fly":
                raise ValueError("fly needs a window")
            if tile_config.block_size > 64:
                raise ValueError("tile too large")

        def batch(self):
            if self.vllm_config.parallel_config.use_ubatching:
                raise ValueError("no microbatching here")

        def tokens(self):
            if self.vllm_config.parallel_config.tokens_per_block > 64:
                raise ValueError("too many tokens a block")

        def device(self):
            if self.vllm_config.parallel_config.uses_device:
                raise ValueError("device in use")

        def blocks(self):
            if self.vllm_config.parallel_config.block_size > 64:
                raise ValueError("blocks too large")
"""


def link() -> dict[str, IndexedSite]:
    facts = [
        extract_file(path, textwrap.dedent(text).encode())
        for path, text in (("eng/config.py", CONFIG), ("eng/runner.py", RUNNER))
    ]
    sites = link_version("demo", facts)
    return {s.site.message.text: s for s in sites if s.site.message is not None}


def _flags(site: IndexedSite) -> list[tuple[str, str]]:
    return [(k.name, k.behind) for k in site.knobs if k.kind == KnobKind.FLAG]


def test_a_local_holding_a_config_object_reads_its_flag() -> None:
    site = link()["ngram is not supported here"]
    # the JSON flag of the object, named as the check holds it: its key is `spec.method`
    assert _flags(site) == [("--speculative-config", "spec")]
    (knob,) = site.knobs
    assert knob.via is not None
    assert "the local `spec` = `self.vllm_config.speculative_config`" in knob.via


def test_a_parameter_annotated_as_a_settings_class_reads_its_flag() -> None:
    site = link()["fly needs a window"]
    assert _flags(site) == [("--speculative-config", "spec_config")]


def test_a_parameter_of_another_config_class_has_no_flag_of_its_field_name() -> None:
    # `TileConfig.block_size` is a kernel's: `--block-size` writes `ParallelConfig`'s
    # (its other test's flag stays, so the page is not left without any)
    assert _flags(link()["tile too large"]) == [("--speculative-config", "spec_config")]
    # the settings class's own field through the object keeps its flag
    assert _flags(link()["blocks too large"]) == [
        ("--block-size", "self.vllm_config.parallel_config.block_size")
    ]


def test_a_property_of_the_config_class_read_through_the_object() -> None:
    site = link()["too many tokens a block"]
    behind = "self.vllm_config.parallel_config.tokens_per_block"
    assert _flags(site) == [("--block-size", behind)]
    (knob,) = site.knobs
    assert knob.same_value  # the property returns the field as it is
    assert knob.via is not None and "ParallelConfig.tokens_per_block" in knob.via
    # one computed from several keys (`self.enable_dbo or self.ubatch_size > 1`), or reading
    # a method's result, is not followed: no value of one flag decides it
    assert _flags(link()["no microbatching here"]) == []
    assert _flags(link()["device in use"]) == []
