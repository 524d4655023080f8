"""The values a message says the flag it asks for may take, all of them: "--replay requires
--kernel-backend triton or flashinfer" is `--kernel-backend triton` or `--kernel-backend
flashinfer`. It keeps the setting the user gave (`--replay`), which the page's other way out
drops, so it comes first; the sentence naming `--replay` too does not make it that setting's
advice."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.advice import message_advice
from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            use_replay: bool = False
            kernel_backend: str = "cpu"

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--use-replay", action="store_true")
                parser.add_argument(
                    "--kernel-backend", type=str, choices=["triton", "flashinfer", "cpu"]
                )
                return parser
        """,
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class KernelConfig:
            backend: str = "cpu"


        @dataclass
        class CacheConfig:
            use_replay: bool = False


        @dataclass
        class EngineConfig:
            cache_config: CacheConfig
            kernel_config: KernelConfig

            def __post_init__(self):
                if not self.cache_config.use_replay:
                    return
                if self.kernel_config.backend not in ("triton", "flashinfer"):
                    raise ValueError(
                        "--use-replay requires --kernel-backend triton or flashinfer"
                    )
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_each_value_the_message_lists_is_given_before_dropping_the_setting(eng: Store) -> None:
    page = page_with_message(eng, "eng", "--use-replay requires")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith(
        "Pass `--kernel-backend triton` or `--kernel-backend flashinfer`, as the message says"
    )
    assert any(t.startswith("Do not pass `--use-replay`") for t in texts[1:])


def test_the_other_values_are_values_to_the_sentence_end() -> None:
    (advice,) = message_advice("--prequeue requires --backend vllm or vllm-chat")
    assert advice.solution.startswith(
        "Pass `--backend vllm` or `--backend vllm-chat`, as the message says"
    )
    (advice,) = message_advice("fused kernels require --dtype fp8, fp16 or bf16.")
    assert advice.solution.startswith(
        "Pass `--dtype fp8`, `--dtype fp16` or `--dtype bf16`, as the message says"
    )
    # a bound, a phrase, another flag, or words after the values: no list of its values
    for message in (
        "x requires --dtype fp16 or higher",
        "Triton replay requires --cache-backend flashinfer or Model Runner V1",
        "only supports --backend a or --backend b",
        "requires --backend vllm or vllm-chat for prequeued requests",
    ):
        assert not any(a.solution.startswith("Pass `") for a in message_advice(message)), message


def test_another_flag_a_quantifier_or_a_number_s_bound_is_no_other_value() -> None:
    # `--backend --eager` is no value of `--backend`; "or both" names no value; after a
    # number, "or bigger" / "or earlier" is a bound
    for message in (
        "--prequeue requires --backend vllm or --eager",
        "--prequeue requires --dtype fp16 or bf16 or both",
        "--prequeue requires --max-len 4096 or bigger",
        "--prequeue requires --api-version 2 or earlier",
    ):
        assert not any(a.solution.startswith("Pass `") for a in message_advice(message)), message
    # numbers, a negative one among them, are values
    (advice,) = message_advice("--prequeue requires --seed 0 or -1")
    assert advice.solution.startswith("Pass `--seed 0` or `--seed -1`, as the message says")
