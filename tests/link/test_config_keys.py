"""A configuration class's own fields, keys of the JSON object a flag takes
(`FlagIndex.own_json_key`, and `link.passed` for one passed on as `self.<field>`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

# vllm's shape: `--speculative-config` takes a JSON object of `SpeculativeConfig`'s fields;
# the class checks its own fields, some through a static method it passes them to.
CONFIG = """
    from dataclasses import dataclass, field
    from typing import ClassVar


    @dataclass
    class ParallelConfig:
        tensor_parallel_size: int = 1
        \"\"\"How many devices hold the weights.\"\"\"


    @dataclass
    class SpeculativeConfig:
        method: str | None = None
        \"\"\"The speculative method.\"\"\"
        rates: list[float] | None = None
        \"\"\"Acceptance rates, non-increasing.\"\"\"
        tensor_parallel_size: int | None = None
        \"\"\"The draft's tensor parallel size.\"\"\"
        greedy: bool = False
        \"\"\"Draft greedily.\"\"\"
        tree: bool | None = None
        \"\"\"Draft a tree; None: decided from the method.\"\"\"
        target_model_config: object = None
        \"\"\"The target model's configuration, passed in by the engine.\"\"\"
        resolved: list[float] = field(default_factory=list, init=False)
        \"\"\"Computed from the rates.\"\"\"
        KINDS: ClassVar[tuple[str, ...]] = ("ngram", "eagle")

        def __post_init__(self):
            if self.method == "medusa":
                raise ValueError("medusa is gone")
            if self.target_model_config is None:
                raise ValueError("no target model")
            if self.resolved == [1.0]:
                raise ValueError("resolved to one")
            if self.tensor_parallel_size == 3:
                raise ValueError("three is not allowed")
            if self.greedy and self.tree:
                raise ValueError("a greedy tree")
            self.resolved = self._check_rates(self.rates)

        @staticmethod
        def _check_rates(rates):
            if rates is not None:
                if any(rates[i] > rates[i - 1] for i in range(1, len(rates))):
                    raise ValueError(f"rates must be non-increasing, got {rates}")
            return list(rates or ())


    @dataclass
    class EngineArgs:
        speculative_config: dict | None = None
        tensor_parallel_size: int = ParallelConfig.tensor_parallel_size

        def add_cli_args(parser):
            parser.add_argument("--speculative-config", type=str)
            parser.add_argument("--tensor-parallel-size", type=int)
"""


def link() -> dict[str, IndexedSite]:
    facts = [extract_file("eng/config.py", textwrap.dedent(CONFIG).encode())]
    sites = link_version("demo", facts)
    return {s.site.message.text: s for s in sites if s.site.message is not None}


def test_a_field_the_class_checks_is_a_key_of_its_json_flag() -> None:
    site = link()["medusa is gone"]
    (knob,) = [k for k in site.knobs if k.behind == "self.method"]
    assert knob.name == "--speculative-config"
    assert knob.json_key == "method"
    assert knob.doc == "The speculative method."


def test_state_the_program_passes_in_or_computes_is_no_key() -> None:
    sites = link()
    # a whole object the engine passes in, a field the constructor does not take (the
    # earlier check's `self.method` is a key, and linked as one)
    for message, name in (
        ("no target model", "target_model_config"),
        ("resolved to one", "resolved"),
    ):
        assert not [k for k in sites[message].knobs if k.behind == f"self.{name}"]


def test_a_plain_flag_of_the_same_name_keeps_its_link() -> None:
    # `--tensor-parallel-size` is matched by name as before; no JSON key is added beside it
    site = link()["three is not allowed"]
    knobs = [k for k in site.knobs if k.behind == "self.tensor_parallel_size"]
    assert [(k.name, k.json_key) for k in knobs] == [("--tensor-parallel-size", None)]


def test_a_field_passed_on_as_self_field_is_that_key() -> None:
    site = link()["rates must be non-increasing, got {rates}"]
    (knob,) = [k for k in site.knobs if k.behind == "rates"]
    assert knob.name == "--speculative-config"
    assert knob.json_key == "rates"
    assert knob.passed_by == ("SpeculativeConfig.__post_init__",)


def test_a_yes_no_key_carries_its_own_default_and_a_key_of_unknown_type_none() -> None:
    site = link()["a greedy tree"]
    defaults = {k.json_key: k.key_default for k in site.knobs if k.json_key in ("greedy", "tree")}
    # `bool | None = None`: a yes/no key left None (the class may decide it itself)
    assert defaults == {"greedy": "False", "tree": "None"}
