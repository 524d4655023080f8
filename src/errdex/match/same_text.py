"""Sites that raise the very same text, when the paste has nothing else to tell them apart:
which one a user most likely hit, and why.

A user calls a package's public functions; internal helpers raise too, but a traceback
that reached a user through a helper usually shows the public call as well, and a paste
without frames most often comes from the plainest path. So: public entry points before
internal helpers (no part of the module path or qualified name private), fewer leading
underscores, shallower modules, then file order.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

__all__ = ["SiteRef", "likeliest_first", "preference_reason"]


class SiteRef(msgspec.Struct, frozen=True, kw_only=True):
    """Another site of one result: where it is, in which version, under which id."""

    id: str
    version: str
    file: str
    line: int
    function: str


def _parts(file: str, function: str) -> list[str]:
    """The module path's parts (without `.py`, `__init__` dropped) and the qualname's."""
    module = file.replace("\\", "/").removesuffix(".py").split("/")
    module = [p for p in module if p and p != "__init__"]
    return module + [p for p in function.split(".") if p != "<locals>"]


def _private(part: str) -> bool:
    # `__init__`, `__call__`: a class's public entry points, not private names.
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def likelihood(file: str, function: str) -> tuple[int, int, int, int]:
    """Sorts the likeliest site first: private parts, leading underscores, nesting, depth."""
    parts = _parts(file, function)
    private = [p for p in parts if _private(p)]
    underscores = sum(len(p) - len(p.lstrip("_")) for p in private)
    nested = function.count("<locals>")
    return (len(private), underscores, nested, file.count("/"))


def likeliest_first(sites: Sequence[SiteRef]) -> list[SiteRef]:
    """`sites` in the order a user most likely hit them (stable: file order breaks ties)."""
    return sorted(sites, key=lambda s: (likelihood(s.file, s.function), s.file, s.line))


def preference_reason(chosen: SiteRef, others: Sequence[SiteRef]) -> str:
    """Why `chosen` comes before `others`, said the way a user reads it."""
    count = len(others) + 1
    head = f"raised at {count} sites with this text"
    mine = likelihood(chosen.file, chosen.function)
    rest = [likelihood(s.file, s.function) for s in others]
    if all(r == mine for r in rest):
        return f"{head}; nothing tells them apart: the first in file order is shown"
    if mine[0] == 0 and any(r[0] for r in rest):
        why = "a public entry point, where the others include internal helpers"
    elif any(r[:2] > mine[:2] for r in rest):
        why = "the least private of them (fewer leading underscores)"
    elif any(r[2] > mine[2] for r in rest):
        why = "a function of its own, where others are nested in another"
    else:
        why = "the one in the shallowest module"
    return f"{head}; {chosen.function} is shown first: {why}"
