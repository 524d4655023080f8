"""What the message names as a cause, in the user's own doing: the way out is not to do it.

An exception class often composes a message that says what commonly leads to it, in the
user's terms: a stream's "already streamed" error says "For requests, this could be due to
passing a generator as request content, and then receiving a redirect response or a
secondary request as part of an authentication flow. For responses, this could be due to
attempting to stream the response content more than once." No test of the site reads what
the user passed (the stream only knows it was consumed), so no rule on the input reaches
it; the message names the user's act. Offered where nothing else is: each cause the message
gives as an act (a verb in -ing taking an object: "passing a generator", "attempting to
stream", "calling `close()`"), with the case it says it is of where a sentence opens with it
("For requests, this could be ..."; "waiting for the reply, this may be ..." names no case).
A cause said as a thing ("a misconfiguration on the benchmark arguments", "rounding errors
in the weights", "running out of memory") names no act to leave out, and one with a
placeholder in it names the program's values: neither gets anything here.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.stated_requirement import message_text
from errdex.facts import SiteKind

__all__ = ["named_cause_solutions"]

_REPORTED = frozenset({SiteKind.RAISE, SiteKind.HELPER})
# "For requests, this could be due to passing a generator as request content, ...": the
# case (optional), and the act up to the end of its sentence
_CAUSE = re.compile(
    r"(?:(?:^|(?<=[.;:!?])\s*)(?P<case>for [a-z][\w ]{0,40}?),\s+)?\b(?:this|which|that|it)\s+"
    r"(?:could|may|might|can|is\s+likely\s+to|is\s+probably)\s+(?:also\s+)?be\s+"
    r"(?:due\s+to|caused\s+by|because\s+of)\s+"
    r"(?P<act>[a-z]+ing\s+(?:(?:an?|the|this|that|these|those|your|its|their|some|any|more|"
    r"multiple|several|two|to)\b|[`'\"]|\w+\()[^.{}]*?)\s*(?:\.|$)",
    re.I,
)
# Words in -ing that are no act of the user's
_NOT_ACTS = frozenset(
    "nothing something anything everything string thing setting missing during pending "
    "incoming outgoing existing remaining underlying being".split()
)


def named_cause_solutions(facts: Facts) -> list[Solution]:
    """ "For requests, avoid passing a generator as request content, ...: the message
    names it as a cause." for each act the message names as a cause; else none."""
    if facts.stored.site.kind not in _REPORTED:
        return []
    out = []
    for found in _CAUSE.finditer(message_text(facts)):
        act = found.group("act")
        if act.split()[0].lower() in _NOT_ACTS:
            continue
        case = found.group("case")
        avoid = f"{case[0].upper()}{case[1:]}, avoid" if case else "Avoid"
        out.append(
            Solution(
                text=f"{avoid} {act}: the message names it as a cause of this error.",
                kind="input",
            )
        )
    return out
