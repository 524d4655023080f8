"""Ways out of a message in Python's own words for a call that does not fit a signature.

pydantic's `validate_arguments` checks the user's call of the decorated function the way
Python does and says so the same way: "multiple values for argument: 'a'", "unexpected
keyword argument: 'c'", "positional-only argument passed as keyword argument". SQLAlchemy's
"select() got an unexpected keyword argument 'x'" is the same. Nothing on the path is the
user's to set: the message says what is wrong with their call, and the way out is that call
changed as the message says, in the frame above this one.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts
from errdex.explain.page import Solution

# the message's words → what to change in the call
_SHAPES = (
    (
        re.compile(r"\bmultiple values for (?:keyword )?argument", re.I),
        "it passes the same argument twice, by position and by keyword: pass each once "
        "(drop the keyword, or the value in its position)",
    ),
    (
        re.compile(r"\bpositional[- ]only argument\S* passed as keyword", re.I),
        "it passes by keyword an argument the function takes by position only: pass it "
        "in its position, without the name",
    ),
    (
        re.compile(r"\bunexpected keyword argument", re.I),
        "it passes a keyword the function does not take: drop it, or spell it as one of "
        "the function's parameters",
    ),
    (
        re.compile(r"\bmissing (?:\d+ )?required (?:positional |keyword-only )?argument", re.I),
        "it leaves out an argument the function requires: pass it",
    ),
    (
        re.compile(r"\btakes \w+ positional arguments? but \w+ (?:was|were) given", re.I),
        "it passes more arguments by position than the function takes: pass the extra "
        "ones by keyword, or drop them",
    ),
    (
        # pydantic's "2 positional arguments expected but 3 given"
        re.compile(r"\bpositional arguments? expected,? but [^.;]{1,40}? given", re.I),
        "it passes more arguments by position than the function takes: pass the extra "
        "ones by keyword, or drop them",
    ),
    (
        # SQLAlchemy's "Table() takes at least two positional-only arguments 'name' and
        # 'metadata'": fewer given by position than it requires
        re.compile(
            r"\btakes at least \w+ (?:positional(?:[- ]only)? )?arguments?"
            r"(?! but)\b(?P<names>(?:[^.]*?'\w+')*)",
            re.I,
        ),
        "it gives by position fewer arguments than the function requires: pass {names} "
        "first, each in its position and without its name",
    ),
)


def call_shape_solution(facts: Facts) -> Solution | None:
    """ "Change your call: it passes the same argument twice …" for a message in Python's
    words for a call that does not fit; else None."""
    message = facts.stored.site.message
    if message is None or facts.stored.site.exception not in ("TypeError", "builtins.TypeError"):
        return None
    for pattern, change in _SHAPES:
        found = pattern.search(message.text)
        if found is not None:
            if "{names}" in change:
                names = re.findall(r"'(\w+)'", found.group("names") or "")
                listed = " and ".join(f"`{n}`" for n in names) or "them"
                change = change.format(names=listed)
            return Solution(
                text=f"Change the call in your own code that the traceback shows above "
                f"this frame: {change}, as the message says.",
                kind="input",
            )
    return None
