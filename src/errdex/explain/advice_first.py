"""The message's own advice before a way out through an internal function's argument.

When the message says what to do ("You must pass an image with an empty token prompt",
"please provide string-named arguments to the values() method with distinct names"), its
authors speak to the user. A way out that changes an argument of the raising function,
when that function is none a user calls (a model's processor, a compiler's visitor), names
the program's own call: the advice comes before it. Settings with their value, a public
call that hands the user's value on (`(it reaches ...)`) and arguments of a function the
package hands to users keep their place. What the advice names is checked against the
version afterwards (`verified.py`): advice naming what the version lacks is dropped there.
"""

from __future__ import annotations

from errdex.explain.context import Facts
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.state_gated import own_argument, users_call


def advice_first(ranked: list[Solution], advice: list[Solution], facts: Facts) -> list[Solution]:
    """`ranked` with each of `advice` moved before the internal-argument ways out that
    come right before it."""
    if not advice or not any(_internal_argument(s, facts) for s in ranked):
        return ranked
    out = list(ranked)
    moved = 0  # advice already moved up: the next keeps its order after them
    for solution in advice:
        if solution not in out:
            continue
        index = out.index(solution)
        place = index
        while place > moved and _internal_argument(out[place - 1], facts):
            place -= 1
        if place < index:
            out.insert(place, out.pop(index))
            moved = place + 1
    return out


def _internal_argument(solution: Solution, facts: Facts) -> bool:
    """Whether the way out changes an argument of the raising function, which no user
    calls (private, or deep in the package and not handed to users)."""
    if not own_argument(solution, facts):
        return False
    return not public_name(facts.stored.site.function) or not users_call(facts)
