"""A flag left out that still gives a value: "Do not pass `--x` in any form" is no way out.

vllm's `throughput.py` warns "Both --prefix-len and --random-prefix-len are specified" when
`args.prefix_len is not None`, and declares `add_argument("--prefix-len", type=int,
default=0)`: left out, the flag gives `0`, never None, so leaving it out changes nothing.
A solution that leaves a flag out for its value to be None is dropped when every
`add_argument` call of the file declaring the flag writes a literal default other than
None (`default=0`, `default="auto"`), or the flag's known default is `True` or `False`. A
call with `nargs` (`nargs="?"` gives its `const`, None unless written, when the flag is
bare), a default that is a name or a call, a `set_defaults(...)` of the file, or a file not
kept keeps the solution. Only the declaring call is read, memoised per file content.
"""

from __future__ import annotations

import ast

from errdex.explain.across_pages import AcrossPages
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.extract.field_defaults import call_arguments
from errdex.facts import KnobKind
from errdex.store.base import Store, StoredSite

__all__ = ["never_none_flag"]

_NONE_FORM = "Do not pass `{}` in any form"
# (the version's revision, file, flag) -> whether every declaration defaults to a value (a
# revision is the hash of the version's content: the file's text is the same for every page)
_SEEN: AcrossPages[bool] = AcrossPages(4096)


def never_none_flag(store: Store, stored: StoredSite, facts: Facts, solution: Solution) -> bool:
    """Whether `solution` leaves out a flag (for its value to be None) that, left out,
    gives a default other than None."""
    flag = solution.knob
    if flag is None or not flag.startswith("--"):
        return False
    if not solution.text.startswith(_NONE_FORM.format(flag)):
        return False
    knob = next((k for k in facts.knobs if k.kind == KnobKind.FLAG and k.name == flag), None)
    if knob is None:
        return False
    if knob.default in ("True", "False"):
        return True
    file = knob.file
    if not file:
        return False

    def declared() -> bool:
        text = store.file_text(stored.version_id, file)
        return _declared_with_value(text, flag) if text else False

    return _SEEN.kept((stored.revision, file, flag), declared)


def _declared_with_value(text: str, flag: str) -> bool:
    """Whether every `add_argument` call of `text` declaring `flag` writes a literal
    default other than None (and no `nargs`), with at least one such call."""
    if "set_defaults(" in text:
        return False
    defaults = 0
    for quote in "\"'":
        at = text.find(f"{quote}{flag}{quote}")
        while at != -1:
            start = text.rfind("add_argument(", 0, at)
            if start == -1:
                return False
            opened = start + len("add_argument(")
            call = call_arguments(text, opened)
            if opened + len(call) <= at:
                return False  # the flag's name is not among this call's arguments
            if not _literal_default(call):
                return False
            defaults += 1
            at = text.find(f"{quote}{flag}{quote}", at + 1)
    return defaults > 0


def _literal_default(call: str) -> bool:
    """Whether the call's arguments write `default=` a literal other than None, and no
    `nargs`."""
    try:
        tree = ast.parse("_(" + call, mode="eval")
    except (SyntaxError, ValueError):
        return False
    node = tree.body
    if not isinstance(node, ast.Call):
        return False
    keywords = {k.arg: k.value for k in node.keywords}
    if None in keywords or "nargs" in keywords or "default" not in keywords:
        return False
    try:
        value = ast.literal_eval(keywords["default"])
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return value is not None
