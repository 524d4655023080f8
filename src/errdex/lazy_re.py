"""Patterns compiled when first used. The `re` module compiles in Python: the patterns of the
modules a lookup imports took half of those modules' import, and a lookup uses about half
of them (a paste's format, the constructs the files it extracts hold)."""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

__all__ = ["lazy_compile"]

# What a pattern is used for: bound once compiled, so that each later use finds the
# compiled pattern's own method, as a module's `re.compile` constant gives it.
_USED = (
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _LazyPattern:
    """Stands for `re.compile(source, flags)` until an attribute of it is first read."""

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # Called only for what is not set yet: the first use compiles and binds them all.
        compiled = re.compile(self._source, self._flags)
        for used in _USED:
            setattr(self, used, getattr(compiled, used))
        return getattr(compiled, name)

    def __reduce__(self) -> tuple[Any, tuple[str | bytes, int]]:
        return re.compile, (self._source, self._flags)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source!r}, {self._flags})"


def lazy_compile(source: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """`re.compile(source, flags)`, compiled when first used (a syntax error shows then)."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(source, int(flags)))
