"""The names a file calls, read from the bytes it is given: what decides which files the
second round of extraction looks at again (`helpercalls.names_to_keep`).

Found by the extraction worker beside a file's facts, while the other workers extract theirs,
rather than by the main process between the two rounds, when every worker waits on it (a
cold index of vllm 0.33.0: 0.89 G of the 1.07 G instructions that choose the files), and
only in the text its skeleton blanked (`skeleton.hidden_text`): a helper called elsewhere
changes nothing a second extraction makes. A file whose facts come from the cache has the
names of its whole text found then: a superset, which looks at more files and makes the same
facts.
"""

from __future__ import annotations

from errdex.lazy_re import lazy_compile

# Run on the reversed bytes, so the pattern starts with a literal and the regex engine jumps
# from one `(` to the next: each match is the name before a `(`, reversed. Scanning forward
# for `\w+\(` tries every position and is twenty times slower.
_CALLED_REVERSED = lazy_compile(rb"\((\w+)")


def called_reversed(data: bytes) -> list[bytes]:
    """Each word that comes right before a `(` in `data` (anywhere: code, strings and
    comments alike), reversed, as often as it comes."""
    return _CALLED_REVERSED.findall(data[::-1])


def packed(data: bytes) -> bytes:
    """`called_reversed(data)`, each name once, as one bytes: a worker sends that back for
    less than a list of them (a word holds no newline)."""
    return b"\n".join(set(called_reversed(data)))


def unpacked(blob: bytes) -> list[bytes]:
    """The names `packed` holds."""
    return blob.split(b"\n") if blob else []
