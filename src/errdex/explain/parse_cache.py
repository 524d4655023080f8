"""Parsed pieces of a file kept across pages: a function, a class, a file's statements,
parsed once per process while the file's text is the same.

A page's rules parse the site's function and class, a caller's function, a few top-level
statements of the file; another rule of the same page, and the next page of the same file,
ask for the same lines again. The trees are read only (as `parse_expression`'s: a rule that
changes a tree parses its own), so one parse serves every reader. What is kept is bounded by
the memory it holds, least recently used first out: a piece parsed costs some 22 bytes a
character of its source (the tree's nodes), a file's text, which the keys hold, a byte a
character. (Counted a character each, the texts filled the bound: of the 200 cold pages of
`bench/web_pages.py --seed 7`, 43 of 348 parses were of pieces parsed before and dropped
for the texts of the files read since, 0.9 M characters of source.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = ["MOST_BYTES", "kept_parse"]

T = TypeVar("T")

# A tree's bytes per character of the source parsed (vllm/config/vllm.py: 164,431
# characters, 3.6 MB of nodes), and the bytes kept: the trees of a million characters of
# source (a file of vllm's is 150,000 characters).
TREE_BYTES = 22
MOST_BYTES = 1_000_000 * TREE_BYTES


class _Kept:
    """The parsed pieces by (file text, what was cut of it), and the texts they hold."""

    def __init__(self, most: int) -> None:
        self._lock = threading.Lock()  # pages are built in the web's worker threads
        self._most = most
        self._pieces: OrderedDict[tuple[str, Hashable], tuple[Any, int]] = OrderedDict()
        self._texts: dict[str, int] = {}  # a file's text → how many pieces of it are kept
        self._size = 0

    def get(self, text: str, piece: Hashable, parse: Callable[[], tuple[T, int]]) -> T:
        key = (text, piece)
        with self._lock:
            found = self._pieces.get(key)
            if found is not None:
                self._pieces.move_to_end(key)
                kept: T = found[0]
                return kept
        parsed, size = parse()
        with self._lock:
            if key in self._pieces:  # another thread parsed it meanwhile: theirs is kept
                kept = self._pieces[key][0]
                return kept
            cost = size * TREE_BYTES + (0 if text in self._texts else len(text))
            if cost > self._most:
                return parsed  # a file too big to keep: parsed for each reader
            self._pieces[key] = (parsed, size)
            self._texts[text] = self._texts.get(text, 0) + 1
            self._size += cost
            while self._size > self._most:
                self._drop_oldest()
        return parsed

    def _drop_oldest(self) -> None:
        (text, _), (_, size) = self._pieces.popitem(last=False)
        self._size -= size * TREE_BYTES
        count = self._texts[text] - 1
        if count:
            self._texts[text] = count
        else:
            del self._texts[text]
            self._size -= len(text)

    def clear(self) -> None:
        with self._lock:
            self._pieces.clear()
            self._texts.clear()
            self._size = 0


_KEPT = _Kept(MOST_BYTES)


def kept_parse(text: str, piece: Hashable, parse: Callable[[], tuple[T, int]]) -> T:
    """The tree `parse()` makes of `piece` of the file `text` (with the characters it
    parsed), from an earlier call with the same text and piece when one is kept. The tree is
    shared: read it, never change it."""
    return _KEPT.get(text, piece, parse)


def clear() -> None:
    """Forget every kept tree (a test that counts parses starts afresh)."""
    _KEPT.clear()
