"""A setting behind internal state: an attribute the constructor copies from a configuration
object (`self.max_model_len = model_config.max_model_len`) is what the flag of that field
sets; only an attribute assigned that once in its class, at the top of `__init__`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

SERVE = {
    "serve/__init__.py": "",
    "serve/args.py": """
        import argparse
        from dataclasses import dataclass


        @dataclass
        class ModelConfig:
            max_model_len: int = 4096


        @dataclass
        class CacheConfig:
            block_size: int = 16


        @dataclass
        class SchedulerConfig:
            max_num_seqs: int = 128


        @dataclass
        class EngineArgs:
            max_model_len: int = ModelConfig.max_model_len
            block_size: int = CacheConfig.block_size
            max_num_seqs: int = SchedulerConfig.max_num_seqs


        def bench_parser():
            p = argparse.ArgumentParser()
            p.add_argument("--num-attention-heads", type=int)
            return p
        """,
    "serve/scheduler.py": """
        class Scheduler:
            def __init__(self, scheduler_config):
                self.max_running = scheduler_config.max_num_seqs
                self.running = []

            def schedule(self, batch):
                if len(self.running) > self.max_running:
                    raise RuntimeError("the scheduler overran its running limit")
                assert len(batch) <= self.max_running, "a batch past the running limit"
                return batch
        """,
    "serve/attention.py": """
        class Attention:
            def __init__(self, config):
                self.num_heads = config.num_attention_heads

            def split(self, tp_size):
                if self.num_heads % tp_size != 0:
                    raise ValueError(f"heads do not split over {tp_size} ranks")
        """,
    "serve/strategies.py": """
        class Reader:
            def __init__(self, vllm_config):
                self.max_model_len = vllm_config.model_config.max_model_len
                self.block_size = vllm_config.cache_config.block_size
                if vllm_config.small:
                    self.block_size = 1

            def read(self, ids):
                if len(ids) > self.max_model_len:
                    raise ValueError(f"the prompt is longer than allowed: {len(ids)} tokens")
                return ids

            def pack(self, ids):
                if len(ids) > self.block_size:
                    raise ValueError(f"a block is too small for {len(ids)} tokens")
                return ids
        """,
}


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("serve"), "serve", SERVE)


def texts(page: Page) -> list[str]:
    return [s.text for s in page.solutions]


def test_an_attribute_copied_from_a_config_field_is_its_flag(serve: Store) -> None:
    page = page_with_message(serve, "serve", "the prompt is longer")
    knobs = {(k.name, k.behind) for k in page.knobs}
    assert ("--max-model-len", "self.max_model_len") in knobs
    assert texts(page)[0].startswith(
        "Pass `--max-model-len` with a value at least `len(ids)`, or make what `len(ids)` "
        "counts smaller"
    ), texts(page)


def test_an_attribute_assigned_again_in_its_class_is_not_followed(serve: Store) -> None:
    page = page_with_message(serve, "serve", "a block is too small")
    assert not any(k.name == "--block-size" for k in page.knobs)
    assert not any("--block-size" in t for t in texts(page))


def test_a_flag_of_the_same_name_on_an_object_of_another_kind_is_not_followed(
    serve: Store,
) -> None:
    # `config` is a checkpoint's, not a class declaring `num_attention_heads`: a benchmark's
    # `--num-attention-heads` of that name does not set it
    page = page_with_message(serve, "serve", "heads do not split")
    assert not any(k.name == "--num-attention-heads" for k in page.knobs)


def test_a_count_the_code_keeps_within_the_limit_is_no_limit_to_raise(serve: Store) -> None:
    # the object's own state, and an assert: the code holds them to the limit itself
    for message in ("the scheduler overran", "a batch past the running limit"):
        page = page_with_message(serve, "serve", message)
        assert any(k.name == "--max-num-seqs" for k in page.knobs), message
        assert not any("--max-num-seqs" in t for t in texts(page)), (message, texts(page))
