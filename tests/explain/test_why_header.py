"""The comment above an `if (` whose test starts under it, read as the comment of its
guard (the guard's line is the test's, one below the comment)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.explain.why_texts import header_comments
from errdex.store import Store

GUARDS = {
    "grd/__init__.py": "",
    "grd/params.py": """
        def check_grammar(grammar, schema):
            # Reject an empty grammar early to avoid crashes in the engine
            if (
                grammar is not None
                and grammar == ""
            ):
                raise ValueError("empty grammar")


        def check_schema(schema, strict):
            # Nothing to read without a schema
            if (
                schema is None
            ):
                return
            if strict and len(schema) > 10:
                raise ValueError("schema too long")


        def check_ranks(ranks, world):
            # Each rank must own one shard; a world that no rank count divides cannot
            if not (
                world % ranks == 0
            ):
                raise ValueError("world size is no multiple of the ranks")


        def fused_moe(weights, tokens, quant):
            # w8a8 per-channel quantization
            if (
                quant.per_channel
                and quant.use_fp8
            ):
                assert weights.dim() == 2, "weights should be two-dimensional"
                return weights
            return tokens


        def check_strides(indices, lengths):
            # Kernel loads need contiguous strides: a misaligned caller fails loudly
            if (
                indices.stride(0) % 4 != 0
            ):
                raise ValueError("indices must have aligned strides")
            if not lengths.is_contiguous():
                raise ValueError("lengths must be contiguous")


        def allocate(blocks, wanted, spare):
            # `wanted` may be less than the blocks held if they were over-allocated
            if (
                wanted <= len(blocks)
            ):
                return []
            else:
                count = wanted - len(blocks)
                if spare:
                    count += 1
                most = 2 + spare
                held = blocks[:]
                assert count <= most, "more blocks wanted than held"
            return held


        def remap(layer, meta):
            # Indexer layers may rewrite their buffer, so always remap
            if (
                layer.owns_indexer
                or meta.buffer is not layer.indices_buffer
            ):
                assert layer.indices_buffer is not None
                return layer.indices_buffer
            return meta.buffer


        def force_chunking(model_config, scheduler):
            # Note: model_config may be None during testing
            if (
                model_config is not None
                and model_config.is_prefix_lm
            ):
                raise ValueError("prefix models need unchunked input")


        def check_outputs(tag, regex):
            # We do NOT check the regex on emptiness because an empty pattern is valid
            if (
                isinstance(tag, str)
                and tag.strip() == ""
            ):
                raise ValueError("the tag cannot be an empty string")
        """,
}


@pytest.fixture(scope="module")
def grd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("grd"), "grd", GUARDS)


def quotes(store: Store, message: str) -> list[tuple[str, str]]:
    return [(q.of, q.text) for q in page_with_message(store, "grd", message).why]


def test_the_comment_above_an_if_whose_test_starts_under_it(grd: Store) -> None:
    assert quotes(grd, "empty grammar") == [
        (
            "comment above the guard at line 5",
            "Reject an empty grammar early to avoid crashes in the engine",
        )
    ]
    assert quotes(grd, "world size is no multiple") == [
        (
            "comment above the guard at line 23",
            "Each rank must own one shard; a world that no rank count divides cannot",
        )
    ]


def test_the_comment_above_such_an_early_exit_is_its_own(grd: Store) -> None:
    # it says why the function returns early, not why the schema is refused: held to the
    # rules of any guard's comment
    assert quotes(grd, "schema too long") == []


def test_only_a_header_that_opens_its_test_is_read() -> None:
    lines = [
        "def f(a, b):",
        "    # the total of both",
        "    total = (",
        "        a + b",
        "    )",
        "    # only a positive size",
        "    if (  # the caller's",
        "        total > 0",
        "    ):",
    ]
    assert header_comments(lines, 4, 1) is None  # an assignment's bracket
    assert header_comments(lines, 8, 1) == (["only a positive size", "the caller's"], 6)
    assert header_comments(lines, 8, 7) is None  # the header is the first line read: none


def test_no_label_of_the_branch_nor_another_checks_comment(grd: Store) -> None:
    # a label over the branch the assert sits in: no word of the assert's test or message
    assert quotes(grd, "weights should be two") == []
    # over the strides' own `if (`: that check's, though it says a caller fails
    assert quotes(grd, "indices must have aligned") != []
    assert quotes(grd, "lengths must be contiguous") == []
    # the assert sits far down the `else` of the guard the comment is over
    assert page_in_function(grd, "grd", "allocate").why == []


def test_no_comment_of_the_guard_alone_nor_an_aside(grd: Store) -> None:
    # "buffer" of the comment is the guard's word, which the assert tests again
    assert page_in_function(grd, "grd", "remap").why == []
    # an aside on the None test of a guard that tests more
    assert quotes(grd, "prefix models need unchunked") == []
    # on a check not made
    assert quotes(grd, "the tag cannot be an empty") == []
