"""Sites that raise the very same text, when the paste has nothing else to tell them apart:
which one a user most likely hit, and why.

In order: a raise before a bare `raise` passing on a caught error (the error is made at the
raise inside the `try`, the traceback's last frame) and before an `assert` (skipped under
`python -O`); a function of its own before one nested in another; a raise that writes the text
itself before one reached through a helper's call (`validate(value, "bad length")`, shown at
the helper's raise, see `helper_raise.py`); the site behind fewer conditions (the common
path, not a special case: within one function an input meets the earlier, less guarded
check first); shallower modules; then public names before private ones, and file order.

Each key is the site's own, read from its file alone: the same sites rank alike whether the
whole package is indexed or only the files a first answer needed (`partial.py`). How many
places call a site's function is not such a key: a first answer knows only the callers in
its few files (pygments 2.21.0's `no lexer for alias 'x' found`, raised by
`get_lexer_by_name` and `find_lexer_class_by_name`, came first from the one whose caller the
subset held, and from the other in the whole). Nor is whether an indexed call reaches the
raise: a raise counts as reached through a helper's call only when the text is the call's,
not its own template's.

Measured on real exceptions (the 192 same-text groups the test-suite set's message lines
meet, and the 46 of the live set's last lines, which call public functions with wrong
arguments), whether the raising function's own name or module is private tells nothing of
which site was hit, and put first it lost cases on both sets (78 of 192 and 19 of 46 first,
against 84 and 21 as a late tie-break): a public function is rarely what raises, and many
packages keep their code in private modules behind re-exports (`typer/_click`, httpx's
`_client.py`). The count of callers told less than the conditions (a function called from
many places inside the package is as often an internal step as a way in), and left out the
test-suite set's message lines gain two of 773 first (651, was 649), the rest unchanged.
What decides is said in words (`preference_reason`) and as a code (`tie_break`, a result's
`tie_break` field).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

__all__ = [
    "TIE_BREAKS",
    "SiteRef",
    "likeliest_first",
    "plainest",
    "preference_reason",
    "tie_break",
]


class SiteRef(msgspec.Struct, frozen=True, kw_only=True):
    """Another site of one result: where it is, in which version, under which id."""

    id: str
    version: str
    file: str
    line: int
    function: str
    callers: int = 0  # functions of the project that call this site's function
    conditions: int = 0  # the conditions that must all hold for it to raise
    kind: str = "raise"  # the site's kind: "helper" for a call of a function that raises
    through_helper: bool = False  # a raise inside a helper, shown for the call that reaches it


def plainest(path: str) -> tuple[bool, int, str]:
    """Sorts the files a user's call most likely reaches first, as the store hands out the
    sites of one text (`store.sqlbase.PLAINEST`): public modules before private ones,
    shallow before deep, then in path order. A first answer's subset holds the files a
    search of the whole takes first, and ties of one release are ranked in this order."""
    plain = f"/{path}".replace("/__init__.py", "").replace("/__main__.py", "")
    return ("/_" in plain, path.count("/"), path)


def _parts(file: str, function: str) -> list[str]:
    """The module path's parts (without `.py`, `__init__` dropped) and the qualname's."""
    module = file.replace("\\", "/").removesuffix(".py").split("/")
    module = [p for p in module if p and p != "__init__"]
    return module + [p for p in function.split(".") if p != "<locals>"]


def _private(part: str) -> bool:
    # `__init__`, `__call__`: a class's public entry points, not private names.
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def likelihood(site: SiteRef) -> tuple[int, int, int, int, int, int, int]:
    """Sorts the likeliest site first: a raise before a re-raise or an assert, nesting, a
    helper's call, more conditions, depth, private parts, leading underscores."""
    parts = _parts(site.file, site.function)
    private = [p for p in parts if _private(p)]
    underscores = sum(len(p) - len(p.lstrip("_")) for p in private)
    nested = site.function.count("<locals>")
    helper = int(site.kind == "helper" or site.through_helper)
    depth = site.file.count("/")
    made = _PASSED_ON.get(site.kind, 0)
    return (made, nested, helper, site.conditions, depth, len(private), underscores)


def likeliest_first(sites: Sequence[SiteRef]) -> list[SiteRef]:
    """`sites` in the order a user most likely hit them (stable: file order breaks ties)."""
    return sorted(sites, key=lambda s: (likelihood(s), s.file, s.line))


def tie_break(chosen: SiteRef, others: Sequence[SiteRef]) -> str:
    """What put `chosen` before `others`: the first of `TIE_BREAKS` on which one of them
    differs (`file_order` when none does)."""
    mine = likelihood(chosen)
    rest = [likelihood(s) for s in others]
    for depth, code in enumerate(TIE_BREAKS[:-1], start=1):
        if any(r[:depth] > mine[:depth] for r in rest):
            # Of private names alike, the fewer private parts is the less private one.
            return "fewer_underscores" if code == "public_name" and mine[5] else code
    return "file_order"


def preference_reason(chosen: SiteRef, others: Sequence[SiteRef]) -> str:
    """Why `chosen` comes before `others`, said the way a user reads it."""
    head = f"raised at {len(others) + 1} sites with this text"
    code = tie_break(chosen, others)
    if code == "file_order":
        return f"{head}; nothing tells them apart: the first in file order is shown"
    if code == "made_here" and chosen.kind != "assert" and any(s.kind == "assert" for s in others):
        why = "a raise, where others are asserts (which `python -O` skips)"
    else:
        why = _SAID[code]
    return f"{head}; {chosen.function} is shown first: {why}"


# Kinds that pass on or may skip an error another kind makes: a bare `raise` re-raises what
# a raise inside its `try` made (the traceback's last frame is that raise), and an `assert`
# is skipped under `python -O`.
_PASSED_ON = {"assert": 1, "reraise": 2}

# What decides, in the order `likelihood` compares them (its tuple's places), then file order.
TIE_BREAKS = (
    "made_here",
    "own_function",
    "raises_itself",
    "fewer_conditions",
    "shallower_module",
    "public_name",
    "fewer_underscores",
    "file_order",
)
_SAID = {
    "made_here": "it raises the error where it is made, where others re-raise one caught",
    "own_function": "a function of its own, where others are nested in another",
    "raises_itself": "it raises the error itself, where others call a helper that raises it",
    "fewer_conditions": "it raises behind fewer conditions (the common path, not a special case)",
    "shallower_module": "the one in the shallowest module",
    "public_name": "a public entry point, where the others include internal helpers",
    "fewer_underscores": "the least private of them (fewer leading underscores)",
}
