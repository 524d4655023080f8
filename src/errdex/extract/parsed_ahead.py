"""Trees parsed before extraction asks for them: a first answer's cutter parses each file it
cuts to check that extraction will read it (`match/needed_text.py`), and extraction in the
same process then takes that tree rather than parsing the same text again (a cut
`compiler.py` of 300 kB is parsed once, not twice, before the answer)."""

from __future__ import annotations

import ast

from errdex.extract.skeleton import Skeleton

# Characters of text whose trees are kept at once, oldest dropped first: a first answer's
# subset is a few dozen files cut to a few megabytes at most, extracted right after.
_MOST = 4_000_000
_AHEAD: dict[str, tuple[ast.Module, Skeleton | None]] = {}


def keep(text: str, tree: ast.Module, skeleton: Skeleton | None) -> None:
    """Keep the tree of `text` (of its skeleton's text, when `skeleton` is given)."""
    _AHEAD[text] = (tree, skeleton)
    held = sum(map(len, _AHEAD))
    while held > _MOST and len(_AHEAD) > 1:
        held -= len(oldest := next(iter(_AHEAD)))
        del _AHEAD[oldest]


def take(text: str) -> tuple[ast.Module, Skeleton | None] | None:
    """The tree kept for `text` and the skeleton it is of, once (the walk may annotate it)."""
    return _AHEAD.pop(text, None)
