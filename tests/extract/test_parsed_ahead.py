"""A tree parsed before extraction (by a first answer's cutter) is taken once, and extracting
from it gives the facts a fresh parse gives."""

from __future__ import annotations

import ast

import msgspec

from errdex.extract import extract_file, parsed_ahead
from errdex.match.needed_text import Need, only_needed

SOURCE = (
    "import os\n"
    "class CartError(Exception):\n    pass\n"
    "def add(item, count):\n"
    "    if count > 99:\n"
    "        raise CartError(f'at most 99 of one item, asked for {count}')\n"
    "def unrelated(x):\n" + "    x = x + 1\n" * 40 + "    return x\n"
)


def test_a_cut_files_tree_is_taken_once_and_gives_the_same_facts() -> None:
    cut = only_needed(SOURCE.encode(), Need(frozenset({"add"})))
    assert b"def unrelated(*a, **k): ..." in cut  # cut, and parsed to check it
    kept = parsed_ahead.take(cut.decode())
    assert kept is not None
    parsed_ahead.keep(cut.decode(), *kept)
    handed = extract_file("shop/cart.py", cut)
    assert parsed_ahead.take(cut.decode()) is None  # extraction took the tree
    fresh = extract_file("shop/cart.py", cut)
    assert msgspec.msgpack.encode(handed) == msgspec.msgpack.encode(fresh)
    assert [site.line for site in handed.sites] == [6]


def test_trees_kept_are_bounded_by_the_text_they_hold() -> None:
    texts = [f"x = {n}\n" + "#" * 1_000_000 for n in range(6)]
    for text in texts:
        parsed_ahead.keep(text, ast.parse(text), None)
    assert parsed_ahead.take(texts[0]) is None  # the oldest were dropped
    assert parsed_ahead.take(texts[-1]) is not None
    for text in texts:
        parsed_ahead.take(text)
