"""Finding words in source text with `str.find`, which scans far faster than a regex."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def occurrences(text: str, word: str) -> Iterator[int]:
    """The offset of every occurrence of `word` in `text`, in order (overlaps included)."""
    at = text.find(word)
    while at != -1:
        yield at
        at = text.find(word, at + 1)


def find_all(text: str, words: Iterable[str]) -> list[int]:
    """Sorted offsets of every occurrence of each of `words`."""
    return sorted(at for word in words for at in occurrences(text, word))


def after_word_boundary(text: str, at: int) -> bool:
    """Whether no identifier character comes right before `at`."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")
