"""A name holding a section of a JSON-valued flag's object (`config =
vllm_config.attention_config.hisparse_config`): an attribute of it is a key of the section,
nested under it in the flag's JSON, never one at the JSON's top (the object refuses keys
it does not declare). Leaving the flag out (the section None) is still said."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        import json
        from dataclasses import dataclass


        @dataclass
        class SparseConfig:
            buffer_size: int | None = None


        @dataclass
        class AttentionConfig:
            sparse_config: SparseConfig | None = None


        @dataclass
        class EngineArgs:
            attention_config: AttentionConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--attention-config", type=json.loads)
                return parser
        """,
    "eng/sparse.py": """
        def resolve(vllm_config, block_size):
            config = vllm_config.attention_config.sparse_config
            if config is None:
                return None
            if config.buffer_size is not None and block_size % config.buffer_size:
                raise ValueError("the buffer is not aligned to the block")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("sections"), "eng", ENG)


def test_a_sections_key_is_not_written_at_the_top_of_the_flags_json(eng: Store) -> None:
    page = page_with_message(eng, "eng", "the buffer is not aligned")
    texts = [s.text for s in page.solutions]
    assert not any('{"buffer_size"' in t for t in texts), texts
    assert any(t.startswith("Do not pass `--attention-config`") for t in texts), texts
