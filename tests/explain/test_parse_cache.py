"""Parsed pieces of a file kept across pages, bounded by the memory they hold."""

from __future__ import annotations

import ast

import pytest

from errdex.explain import context, parse_cache
from errdex.explain.context import function_at
from errdex.explain.parse_cache import TREE_BYTES, _Kept

SOURCE = "def first():\n    return 1\n\n\ndef second(x):\n    if x:\n        raise ValueError\n"


@pytest.fixture(autouse=True)
def _no_kept_parses() -> None:
    parse_cache.clear()


def test_a_function_asked_again_is_the_same_tree_parsed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[int] = []
    real = context.parsed_block
    monkeypatch.setattr(
        context, "parsed_block", lambda lines, *span: parsed.append(span[0]) or real(lines, *span)
    )
    one = function_at(SOURCE, "second", 7)
    # another rule asking for a line of the same function, or another copy of the text
    again = function_at("".join(list(SOURCE)), "second", 6)
    assert one is not None and one is again and len(parsed) == 1
    assert function_at(SOURCE, "first", 2) is not None and len(parsed) == 2
    # another text (the file of another version) is parsed for itself
    changed = SOURCE.replace("ValueError", "TypeError")
    other = function_at(changed, "second", 7)
    assert other is not None and other is not one and len(parsed) == 3
    assert ast.unparse(other).endswith("raise TypeError")


def test_what_is_kept_is_bounded_by_the_memory_it_holds() -> None:
    kept = _Kept(most=40 + 2 * 25 * TREE_BYTES)
    text = "x" * 40
    calls: list[int] = []

    def parse(n: int) -> tuple[str, int]:
        calls.append(n)
        return f"tree {n}", 25

    # the text (40 bytes) and two trees of 25 characters fit; a third pushes the least
    # recent out
    assert kept.get(text, 1, lambda: parse(1)) == "tree 1"
    assert kept.get(text, 2, lambda: parse(2)) == "tree 2"
    assert kept.get(text, 1, lambda: parse(1)) == "tree 1" and calls == [1, 2]
    assert kept.get(text, 3, lambda: parse(3)) == "tree 3"
    assert kept.get(text, 2, lambda: parse(2)) == "tree 2" and calls == [1, 2, 3, 2]
    # a file bigger than the whole bound is parsed for each reader, never kept
    big = "y" * 200 * TREE_BYTES
    assert kept.get(big, 1, lambda: parse(9)) == "tree 9"
    assert kept.get(big, 1, lambda: parse(9)) == "tree 9" and calls[-2:] == [9, 9]


def test_the_texts_of_large_files_do_not_push_their_parsed_functions_out() -> None:
    # a page parses a function or two of a file of 150,000 characters (vllm's config and
    # model runner modules): a file's text is a byte a character, its function's tree
    # some 22 bytes a character of the function
    texts = [f"# file {n}\n" + "x = 1\n" * 25_000 + SOURCE for n in range(10)]
    parsed: list[int] = []
    real = context.parsed_block

    def counted(lines: list[str], start: int, end: int) -> tuple[ast.Module | None, int]:
        parsed.append(start)
        return real(lines, start, end)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(context, "parsed_block", counted)
        first = [function_at(text, "second", 25_008) for text in texts]
        assert len(parsed) == 10 and all(f is not None for f in first)
        again = function_at(texts[0], "second", 25_008)  # the next page of the first file
    assert again is first[0] and len(parsed) == 10


def test_a_piece_that_does_not_parse_is_kept_as_none() -> None:
    kept = _Kept(most=1000)
    calls: list[int] = []

    def parse() -> tuple[None, int]:
        calls.append(1)
        return None, 5

    assert kept.get("text", "piece", parse) is None
    assert kept.get("text", "piece", parse) is None and calls == [1]
