"""A reasons list built from a table of (reason, enabled) pairs: each reason is a variant
with its own condition, so each flag is named for the reason it puts in the list, and no
one flag is said to empty the whole list."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

MOE = {
    "moe/__init__.py": "",
    "moe/config.py": """
        from dataclasses import dataclass


        @dataclass
        class ParallelConfig:
            enable_eplb: bool = False
            enable_expert_parallel: bool = False
        """,
    "moe/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            enable_eplb: bool = False
            enable_expert_parallel: bool = False
        """,
    "moe/layer.py": """
        class Experts:
            def __init__(self, parallel_config, num_experts, num_compute_experts, lora):
                unsupported = [
                    name
                    for name, enabled in (
                        ("MoE LoRA", lora),
                        (
                            "EPLB",
                            parallel_config.enable_eplb or num_experts != num_compute_experts,
                        ),
                        ("expert parallelism", parallel_config.enable_expert_parallel),
                    )
                    if enabled
                ]
                if unsupported:
                    raise NotImplementedError(
                        "expert substitution does not support: " + ", ".join(unsupported)
                    )
        """,
}


@pytest.fixture(scope="module")
def moe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("moe"), "moe", MOE)


def test_each_pair_is_a_reason_with_its_own_condition(moe: Store) -> None:
    page = page_with_message(moe, "moe", "expert substitution does not support")
    texts = [s.text for s in page.solutions]
    # no one flag is said to empty the list; each is named for the reason it adds, and
    # the other part of the reason's test is said beside it, not claimed
    assert not any("`unsupported`" in t for t in texts)
    assert texts == [
        "If the message names “EPLB”: do not pass `--enable-eplb` (so that "
        "`parallel_config.enable_eplb` is false and `num_experts` equals `num_compute_experts`).",
        "If the message names “expert parallelism”: do not pass `--enable-expert-parallel` "
        "(so that `parallel_config.enable_expert_parallel` is false).",
    ]
    assert "“MoE LoRA”, “EPLB”, “expert parallelism”" in page.what_it_means
    # the list's own test is no context: the reasons above have settings behind them
    assert "errdex found no setting" not in page.what_it_means
