"""Where a version's code names each identifier: the words of all its files, counted.

A page asking "does anything in the package call `_f`?" cannot trust the caller index
alone (a call on an object no import resolves, a function handed on as a value, a name
in a string for `getattr`): the word itself, counted over every file, can tell that
nothing names it but its own `def`. Read once per version and kept across pages
(`explain/page_reads.py`), as the files do not change until something is written.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

import msgspec

__all__ = ["NameMentions", "count_mentions"]

_WORD = re.compile(r"[A-Za-z_]\w*")
_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
# a name made at run time: the literal part before a placeholder or a `+`
# whole (`f"_visit_{kind}"`, `"visit_%s" % kind`, `"do_" + cmd`, `"_on_{}".format(e)`), not a
# literal added to something before it (`name + "_" + key` starts with `name`)
_BUILT_PREFIX = re.compile(
    r"""(?<![\w"'+])(?<!\+[ \t])(?<!\+=[ \t])[fFrRbBuU]{0,2}(["'])([A-Za-z_]\w*)"""
    r"""(?:\{[^{}"'\n]*\}\1|%s\1|%\(\w+\)s\1|\{\}\1\.format|\1[ \t]*\+)"""
)
# ... and the literal part after a `+` that could end a name (`name + "_impl"`)
_BUILT_SUFFIX = re.compile(r"""\+[ \t]*[fFrRbBuU]{0,2}(["'])(_\w+)\1""")


class NameMentions(msgspec.Struct, frozen=True):
    """How often each word occurs in a version's files, how often as a `def`'s name, and
    the literal pieces of names built at run time."""

    words: dict[str, int]
    defs: dict[str, int]
    prefixes: frozenset[str]
    suffixes: frozenset[str]

    def named_only_where_defined(self, name: str) -> bool:
        """Whether `name` occurs in the code only as the name of its `def`s, and no name
        built at run time could be it."""
        defined = self.defs.get(name, 0)
        if not defined or self.words.get(name, 0) != defined:
            return False
        if any(p and name.startswith(p) and p != name for p in self.prefixes):
            return False
        # a word that starts it up to an `_` (`"_check_"` of `startswith("_check_")`
        # picking methods out of `dir(self)`): names may be found by that start
        starts = (name[: i + 1] for i, c in enumerate(name[:-1]) if c == "_" and i)
        if any(s.strip("_") and self.words.get(s) for s in starts):
            return False
        return not any(s and name.endswith(s) and s != name for s in self.suffixes)


def count_mentions(texts: Iterable[str]) -> NameMentions:
    words: Counter[str] = Counter()
    defs: Counter[str] = Counter()
    prefixes: set[str] = set()
    suffixes: set[str] = set()
    for text in texts:
        words.update(_WORD.findall(text))
        defs.update(_DEF.findall(text))
        prefixes.update(m.group(2) for m in _BUILT_PREFIX.finditer(text))
        suffixes.update(m.group(2) for m in _BUILT_SUFFIX.finditer(text))
    return NameMentions(
        words=dict(words),
        defs=dict(defs),
        prefixes=frozenset(prefixes),
        suffixes=frozenset(suffixes),
    )
