"""A message that names, in a setting's own words, too large (or too small) a value of it as
what can cause the error: "This can be caused by too large tensor parallel size." is a
smaller `--tensor-parallel-size`, the flag an arguments class of the command line declares."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.link.named import caused_flags
from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            tensor_parallel_size: int = 1
            block_size: int = 16

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--tensor-parallel-size", type=int)
                parser.add_argument("--block-size", type=int)
                return parser
        """,
    "eng/layers.py": """
        class Packed:
            def create_weights(self, sizes, pack):
                out = sum(sizes)
                if out % pack != 0:
                    raise ValueError(
                        "The output size is not aligned with the quantized weight shape. "
                        "This can be caused by too large tensor parallel size."
                    )
                if out < 8:
                    raise ValueError(
                        "The cache is not aligned. This can be caused by too small block size."
                    )
                if out > 4096:
                    raise ValueError("Rows overflow. It can be caused by too large pipeline depth.")
                if out == 7:
                    raise ValueError("Odd rows. This can be caused by too large size.")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_too_large_a_setting_named_in_words_asks_for_a_smaller_value(eng: Store) -> None:
    page = page_with_message(eng, "eng", "The output size is not aligned")
    first = page.solutions[0]
    assert first.text == (
        "Pass a smaller `--tensor-parallel-size`, as the message says: “The output size is "
        "not aligned with the quantized weight shape. This can be caused by too large tensor "
        "parallel size.”"
    )
    assert first.kind == "setting"
    page = page_with_message(eng, "eng", "The cache is not aligned")
    assert page.solutions[0].text.startswith("Pass a larger `--block-size`, as the message says")


def test_words_that_name_no_flag_or_one_word_give_nothing(eng: Store) -> None:
    # no flag of those words; one word alone is as often plain English
    for message in ("Rows overflow", "Odd rows"):
        page = page_with_message(eng, "eng", message)
        assert not any(s.text.startswith("Pass a ") for s in page.solutions)


def test_the_longest_run_of_words_that_is_a_flag_and_no_placeholder() -> None:
    # `tensor parallel` is a flag too: the longer run is the one the message names
    flags = {
        "tensor_parallel_size": "--tensor-parallel-size",
        "tensor_parallel": "--tensor-parallel",
    }
    text = "Maybe caused by too large tensor parallel size for this model."
    assert caused_flags(text, flags.get) == [("--tensor-parallel-size", True)]
    assert caused_flags("caused by too many {tensor_parallel_size} ranks", flags.get) == []
