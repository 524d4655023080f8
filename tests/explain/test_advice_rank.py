"""What the message says to do comes before a setting the page can only name (no value to
set it to), which often only turns the feature off: "Consider increasing
max_num_batched_tokens" before "change `--enable-lora`"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ARGS = """
    from dataclasses import dataclass


    @dataclass
    class EngineArgs:
        enable_lora: bool = False
        max_loras: int = 1
        max_num_batched_tokens: int = 2048
        max_num_seqs: int = 256

        @staticmethod
        def add_cli_args(parser):
            parser.add_argument("--enable-lora", action="store_true")
            parser.add_argument("--max-loras", type=int, default=1)
            parser.add_argument("--max-num-batched-tokens", type=int, default=2048)
            parser.add_argument("--max-num-seqs", type=int, default=256)
            return parser

        def create_config(self):
            lora_config = LoRAConfig(max_loras=self.max_loras) if self.enable_lora else None
            budget = self.plan_budget()
            if (
                lora_config is not None
                and budget.tokens < budget.seqs * 2
            ):
                raise ValueError(
                    "Consider increasing max_num_batched_tokens or decreasing "
                    "num_speculative_tokens"
                )
            if lora_config is not None and self.max_loras > 8:
                raise ValueError("too many LoRAs for one batch")
            if lora_config is not None and self.max_num_seqs > 512:
                raise ValueError(
                    "too many sequences for LoRA; set LORA_LARGE_BATCH=1 to allow them."
                )
    """

ENVS = """
    import os

    environment_variables = {
        "LORA_LARGE_BATCH": lambda: bool(int(os.getenv("LORA_LARGE_BATCH", "0"))),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """


@pytest.fixture(scope="module")
def lora(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"lora/__init__.py": "", "lora/args.py": ARGS, "lora/envs.py": ENVS}
    yield from indexed_package(tmp_path_factory.mktemp("lora"), "lora", files)


def test_the_message_s_advice_comes_before_a_setting_named_without_its_value(
    lora: Store,
) -> None:
    page = page_with_message(lora, "lora", "Consider increasing")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Do what the message says: “Consider increasing")
    assert any("`--enable-lora`" in t for t in texts[1:])


def test_without_advice_the_setting_stays_first(lora: Store) -> None:
    page = page_with_message(lora, "lora", "too many LoRAs")
    assert "`--max-loras`" in page.solutions[0].text


def test_the_messages_advice_with_a_known_settings_value_comes_first(lora: Store) -> None:
    # before the exact way out of the condition (`--max-num-seqs` at most 512)
    page = page_with_message(lora, "lora", "too many sequences")
    texts = [s.text for s in page.solutions]
    assert "LORA_LARGE_BATCH=1" in texts[0]
    assert any("`--max-num-seqs`" in t for t in texts[1:])
