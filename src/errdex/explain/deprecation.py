"""A deprecation whose message names the replacement: the replacement first, no "leave it out".

`AsyncClient(app=...)` warns "The 'app' shortcut is now deprecated. Use the explicit style
'transport=ASGITransport(app=...)' instead.": leaving `app` out (or passing it empty)
silences the warning but drops what the argument did (the client then goes to the network,
not the app). For a deprecation (a `DeprecationWarning`, `FutureWarning` or
`PendingDeprecationWarning`, or a message that says "deprecated") whose message says what to
do, that advice is the way out, first; solutions that drop the argument are not offered.
"""

from __future__ import annotations

import re

import msgspec

from errdex.explain.advice import message_advice
from errdex.explain.context import Facts
from errdex.explain.page import Solution

_DEPRECATION = re.compile(r"Deprecat|FutureWarning")
_DEPRECATED = re.compile(r"\bdeprecated\b", re.I)
# the sentences of an input solution that drop the argument instead of replacing it
_DROPS = re.compile(r"\bleave\b.*\bout\b|\ban empty \(false\) value\b|\bDo not pass\b", re.I)


def replacement_first(solutions: list[Solution], facts: Facts) -> list[Solution]:
    """The solutions, the message's own advice first for a deprecation that gives one,
    without those that leave the deprecated argument out."""
    site = facts.stored.site
    text = site.message.text if site.message is not None else ""
    if not (_DEPRECATION.search(site.exception or "") or _DEPRECATED.search(text)):
        return solutions
    said = [a.text for a in message_advice(text)]
    advised = [s for s in solutions if any(t in s.text for t in said)]
    if not advised:
        return solutions
    rest = [s for s in solutions if s not in advised]
    dropped = [s for s in rest if s.kind == "input" and _DROPS.search(s.text)]
    if dropped and advised[0].condition is None:
        # the replacement is the way out of what the dropped one turned off (the page
        # then does not say no argument is behind the check)
        advised[0] = msgspec.structs.replace(advised[0], condition=dropped[0].condition)
    return advised + [s for s in rest if s not in dropped]
