"""A flag left out gives its declared default: when that default is a value (`default=0`),
"Do not pass `--x` in any form" does not make `args.x is not None` false, and is no way
out; a flag declared with no default (None) keeps that advice."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

BENCH = {
    "bench/__init__.py": "",
    "bench/cli.py": """
        import argparse
        import warnings


        def validate_args(args):
            if args.prefix_len is not None and args.random_prefix_len is not None:
                warnings.warn("Both prefix lengths are given: the random one wins")
            if args.input_len is not None and args.random_input_len is not None:
                warnings.warn("Both input lengths are given: the random one wins")


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--prefix-len", type=int, default=0)
            parser.add_argument("--random-prefix-len", type=int, default=None)
            parser.add_argument("--input-len", type=int, default=None)
            parser.add_argument("--random-input-len", type=int, default=None)
            args = parser.parse_args()
            validate_args(args)
        """,
}


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("bench"), "bench", BENCH)


def test_a_flag_defaulting_to_a_value_is_not_left_out_for_none(bench: Store) -> None:
    page = page_with_message(bench, "bench", "Both prefix lengths")
    texts = [s.text for s in page.solutions]
    assert not any("`--prefix-len`" in t for t in texts), texts


def test_a_flag_defaulting_to_none_is_still_left_out(bench: Store) -> None:
    page = page_with_message(bench, "bench", "Both input lengths")
    texts = [s.text for s in page.solutions]
    assert any(t.startswith("Do not pass `--input-len` in any form") for t in texts), texts
