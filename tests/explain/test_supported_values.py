"""The value a message says is supported, given to the setting it names by its field: "X
supports only fp8/fp8_e4m3 quantized KV cache (got kv_cache_dtype=...)" is `--kv-cache-dtype
fp8`, with its command line, though no condition of the page leads to the flag (the model
picks the code that checks it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            kv_cache_dtype: str = "auto"
            api_server_count: int = 1
            block_size: int = 16
            moe_backend: str = "auto"
            pipeline_parallel_size: int = 1
            enable_eplb: bool = False

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--kv-cache-dtype", type=str)
                parser.add_argument("--api-server-count", type=int)
                parser.add_argument("--block-size", type=int)
                parser.add_argument("--moe-backend", type=str)
                parser.add_argument("--pipeline-parallel-size", type=int)
                parser.add_argument("--enable-eplb", action="store_true")
                return parser
        """,
    "eng/backend.py": """
        QUANTIZED = ("fp8", "fp8_e4m3", "fp8_e5m2", "nvfp4")


        def pick_dtype(spec):
            return spec.cache_dtype


        class DiffBackend:
            def __init__(self, spec):
                self.kv_cache_dtype = pick_dtype(spec)
                if self.kv_cache_dtype in QUANTIZED and self.kv_cache_dtype not in ("fp8",):
                    raise NotImplementedError(
                        "DiffBackend supports only fp8/fp8_e4m3 quantized KV cache "
                        f"(got kv_cache_dtype={self.kv_cache_dtype!r})."
                    )


        def check_cache(spec):
            if spec.cache_dtype not in ("fp8", "auto"):
                raise ValueError(
                    f"Rope norm does not support {spec.cache_dtype}, only supports fp8 and "
                    "auto; see the kv_cache_dtype documentation."
                )


        def tiled_kernel(q, block_size=128):
            if block_size != 128:
                raise ValueError(
                    f"tiled kernel: block_size={block_size} is unsupported; the kernel only "
                    "supports block_size=128"
                )


        class Cascade:
            def __init__(self, spec):
                self.kv_cache_dtype = pick_dtype(spec)
                if spec.head_dim != 128:
                    raise ValueError(
                        "Cascade attention only supports head_dim 128 "
                        f"(got kv_cache_dtype={self.kv_cache_dtype})."
                    )
                if spec.activations != "bfloat16":
                    raise ValueError(
                        "This kernel supports only bfloat16 activations "
                        f"(got kv_cache_dtype={self.kv_cache_dtype})."
                    )


        class FusedMoE:
            def __init__(self, spec):
                self.moe_backend = pick_dtype(spec)
                if self.moe_backend != "triton":
                    raise ValueError(
                        "FusedMoE only supports moe_backend='triton' "
                        f"(got moe_backend={self.moe_backend})."
                    )


        class AliceAI:
            def __init__(self, spec):
                self.pipeline_parallel_size = pick_dtype(spec)
                if self.pipeline_parallel_size != 1:
                    raise ValueError("AliceAI requires pipeline_parallel_size=1.")


        class Elastic:
            def __init__(self, spec):
                self.enable_eplb = pick_dtype(spec)
                if not self.enable_eplb:
                    raise ValueError("Elastic EP is only supported with enable_eplb=True.")


        class Paged:
            def __init__(self, spec):
                self.kv_cache_dtype = pick_dtype(spec)
                self.block_size = spec.block
                if self.kv_cache_dtype != "fp8":
                    raise ValueError(
                        "Paged attention supports only fp8 "
                        f"(got kv_cache_dtype={self.kv_cache_dtype}, block_size={self.block_size})."
                    )


        def cap_servers(spec):
            if spec.servers > 1:
                raise ValueError(
                    "Elastic mode only supports running one API server. Capping "
                    f"api_server_count from {spec.servers}."
                )
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_supported_value_is_given_to_the_flag_of_the_field_the_message_shows_it_got(
    eng: Store,
) -> None:
    page = page_with_message(eng, "eng", "DiffBackend supports only")
    first = page.solutions[0]
    assert first.text.startswith(
        "Pass `--kv-cache-dtype fp8`, a value the message says is supported: “DiffBackend"
    )
    assert first.fix is not None
    assert first.fix.after.startswith("eng serve MODEL_TAG --kv-cache-dtype fp8")
    # a field named in passing (not shown with what the check got) links no flag, a list of
    # what is supported beside a setting shown with another value is of something else, and
    # a variable of the field's name the check tests is the caller's (a kernel's tile)
    for message in ("Rope norm does not support", "Elastic mode only supports", "tiled kernel"):
        page = page_with_message(eng, "eng", message)
        assert not any("a value the message says is supported" in s.text for s in page.solutions)


def test_a_listed_word_that_names_a_field_or_other_thing_is_no_value(eng: Store) -> None:
    # a field's name with its number, and values of what another noun names, are not the
    # values of the setting the message shows
    for message in ("Cascade attention only supports", "This kernel supports only"):
        page = page_with_message(eng, "eng", message)
        assert not any("a value the message says is supported" in s.text for s in page.solutions)


def test_a_value_written_beside_its_field_is_read_quoted_and_without_the_stop(
    eng: Store,
) -> None:
    page = page_with_message(eng, "eng", "FusedMoE only supports")
    first = page.solutions[0]
    assert first.text.startswith("Pass `--moe-backend triton`, a value the message says")
    page = page_with_message(eng, "eng", "AliceAI requires")
    first = page.solutions[0]
    assert first.text.startswith("Pass `--pipeline-parallel-size 1`, a value the message says")
    assert first.fix is not None
    assert first.fix.after.startswith("eng serve MODEL_TAG --pipeline-parallel-size 1")


def test_a_switch_the_message_says_is_on_is_given_bare(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Elastic EP is only supported")
    first = page.solutions[0]
    assert first.text.startswith("Pass `--enable-eplb`, a value the message says is supported")
    assert first.fix is not None
    assert first.fix.after.startswith("eng serve MODEL_TAG --enable-eplb")


def test_values_beside_two_fields_shown_with_what_they_got_are_of_neither(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Paged attention supports only")
    assert not any("a value the message says is supported" in s.text for s in page.solutions)
