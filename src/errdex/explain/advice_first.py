"""The message's own advice before a way out through an internal function's argument.

When the message says what to do ("You must pass an image with an empty token prompt",
"please provide string-named arguments to the values() method with distinct names"), its
authors speak to the user. A way out that changes an argument of the raising function,
when that function is none a user calls (a model's processor, a compiler's visitor), names
the program's own call: the advice comes before it. Settings with their value, a public
call that hands the user's value on (`(it reaches ...)`) and arguments of a function the
package hands to users keep their place. What the advice names is checked against the
version afterwards (`verified.py`): advice naming what the version lacks is dropped there.

The advice also comes before a setting left out (“Do not pass `--speculative-config`”,
“Unset `VLLM_X`”): that gives up the feature the user turned on, while the message's
authors say how to keep it (“Please increase max_num_batched_tokens.”, “Ensure the binding
lists cover every visible GPU.”). A setting the advice itself names, as a flag or as its
field, keeps its place: leaving it out is what the advice asks (“Give only one of
attention_backend and attention_config.backend”), said the way the user runs it.

Advice that names the operation to use ("use contains() to test for membership") also comes
before a way out that passes a constant for the user's operand ("Pass None for the argument
`other` of `Comparator.__eq__`"): that makes the comparison another one than the user wrote.

The message's advice is known by the data its rules leave on the way out
(`Solution.advice`), not by how the sentence is worded.
"""

from __future__ import annotations

import re

from errdex.explain.advice_phrasings import given_flags
from errdex.explain.context import Facts
from errdex.explain.inputs import public_name
from errdex.explain.kept_first import drops_setting, gives_up_argument
from errdex.explain.page import Solution
from errdex.explain.state_gated import own_argument, users_call

# Advice that names the operation to use instead: "use contains() to test for membership",
# "use ==", "use `is_()`"; before a way out that swaps the user's operand for a constant,
# which asks another question than the user did.
_OPERATION = re.compile(r"“(?:please\s+)?use\s+`?(?:[A-Za-z_][\w.]*\(\)|[=!<>]=)", re.I)
# A section of a flag's JSON (a nested configuration, `*_config`) set to null, alone
_NULLED_SECTION = re.compile(r"""^Pass `--[a-z][\w-]* '\{"[a-z]\w*_config": null\}'`""")
# Advice that gives up something itself: "Do not combine X with Y", "Remove one of them"
_GIVES_UP = re.compile(
    r"^(?:Do not|Don't|Leave|Remove|Drop|Disable|Turn off|Unset)\b|"
    r"^Do what the message says: “(?:please\s+)?(?:remove|drop|disable|turn off|unset)\b",
    re.I,
)


def advice_first(ranked: list[Solution], advice: list[Solution], facts: Facts) -> list[Solution]:
    """`ranked` with each of `advice` moved before the internal-argument ways out that
    come right before it."""
    if not advice or not any(_internal_argument(s, facts) or _constant(s) for s in ranked):
        return ranked
    out = list(ranked)
    moved = 0  # advice already moved up: the next keeps its order after them
    for solution in advice:
        if solution not in out:
            continue
        index = out.index(solution)
        place = index
        operation = _OPERATION.search(solution.text) is not None
        while place > moved and (
            _internal_argument(out[place - 1], facts) or (operation and _constant(out[place - 1]))
        ):
            place -= 1
        if place < index:
            out.insert(place, out.pop(index))
            moved = place + 1
    return out


def _constant(solution: Solution) -> bool:
    """Whether the way out puts a constant in place of the user's operand ("Pass None for
    the argument `other` of `Comparator.__eq__`": `!= None` is another comparison)."""
    return gives_up_argument(solution.text)


def advice_before_drops(ranked: list[Solution], advice: list[Solution]) -> list[Solution]:
    """`ranked` with each of `advice` moved to the place of the first way out ahead of it
    that leaves out a setting the advice does not name: it ranks where giving up began."""
    out = list(ranked)
    for solution in advice:
        if solution not in out:
            continue
        index = out.index(solution)
        place = next(
            (i for i, s in enumerate(out[:index]) if _dropped_unnamed(s, solution.text)), None
        )
        if place is not None:
            out.insert(place, out.pop(index))
    return out


def _dropped_unnamed(solution: Solution, advice: str) -> bool:
    """Whether the way out leaves out a setting that the advice's text does not name, as
    the user gives it (`--attention-backend`, `VLLM_X`) or as its field (“attention_backend
    and attention_config.backend are mutually exclusive”: leaving either out is what it
    asks)."""
    knob = solution.knob
    if knob is None:
        return False
    # a section turned off, before advice that keeps it (not advice that gives up something
    # itself: "Remove one of them")
    nulled = _section_nulled(solution) and not _GIVES_UP.search(advice)
    if not drops_setting(solution) and not nulled:
        return False
    return not _names_setting(knob, advice)


def _names_setting(knob: str, advice: str) -> bool:
    """Whether the advice's text names the setting, as the user gives it or as its field."""
    names = {knob, knob[2:].replace("-", "_")} if knob.startswith("--") else {knob}
    # of a flag the advice gives a value, that flag alone is what it names: the sentence it
    # quotes names the setting that asks for it too ("--a requires --b v")
    advice = " ".join(given_flags(advice)) or advice
    return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", advice) for n in names)


def advice_before_switched_off(ranked: list[Solution]) -> list[Solution]:
    """`ranked` with the message's own advice (`Solution.advice`) moved to the place of the
    first way out ahead of it that turns off a switch the user turned on (`Set
    VLLM_USE_MODELSCOPE=0` above “please install by `pip install modelscope -U`”): the
    authors' way keeps the feature the switch asked for. Not advice that names the switch
    (turning it off may be what it asks) or that gives something up itself."""
    out = list(ranked)
    for solution in [s for s in ranked if s.advice]:
        index = out.index(solution)
        place = next(
            (i for i, s in enumerate(out[:index]) if _switched_off_unnamed(s, solution.text)),
            None,
        )
        if place is not None:
            out.insert(place, out.pop(index))
    return out


def _switched_off_unnamed(solution: Solution, advice: str) -> bool:
    """Whether the way out turns off a switch (`Solution.turns_off`) that the advice
    neither names nor gives up itself ("disable ...", "only one of them")."""
    if solution.kind != "setting" or not solution.turns_off or solution.knob is None:
        return False
    if _gives_up(advice):
        return False
    return not _names_setting(solution.knob, advice)


def _gives_up(advice: str) -> bool:
    """Whether the advice gives something up itself: "Do not combine X with Y", or
    anywhere in the message's words it quotes ("... or disable --numa-bind")."""
    said = advice.partition("“")[2]
    return _GIVES_UP.search(advice) is not None or _GIVES_UP_ANY.search(said) is not None


# Advice that gives something up anywhere in it ("... or disable --numa-bind", "Consider
# omitting the flag") or keeps only one of two things the user turned on: leaving one
# out is what it asks
_GIVES_UP_ANY = re.compile(
    r"\b(?:remov|omit|drop|disabl|unset|turn\w* off|leav\w* \w+ (?:out|unset)|without|"
    r"only one|one of (?:them|the two)|either)",
    re.I,
)
# a flag as a fix's line gives it
_FLAG = re.compile(r"(?<![\w-])--[a-z][\w.-]*")


def kept_by_advice(advice: Solution, later: Solution) -> bool:
    """Whether `advice`, the message's own, is a way out that keeps what `later` gives up:
    `later` leaves out a setting the advice does not name, and the advice gives up nothing
    itself ("Disable one of them", "Enable only one load-balancing mode") nor names a flag
    `later`'s fix writes (`--no-async-scheduling`: that fix is the advice)."""
    if not advice.advice or not (drops_setting(later) or later.turns_off):
        return False
    if _gives_up(advice.text):
        return False
    if later.fix is not None and set(_FLAG.findall(later.fix.after)) & set(
        _FLAG.findall(advice.text)
    ):
        return False
    return _dropped_unnamed(later, advice.text) or _switched_off_unnamed(later, advice.text)


def _section_nulled(solution: Solution) -> bool:
    """Whether the way out sets a section of a flag's JSON to null (`--attention-config
    '{"hisparse_config": null}'`): the feature that section configures, which the user
    turned on by giving it, is turned off."""
    return solution.kind == "setting" and _NULLED_SECTION.search(solution.text) is not None


def _internal_argument(solution: Solution, facts: Facts) -> bool:
    """Whether the way out changes an argument of the raising function, which no user
    calls (private, or deep in the package and not handed to users)."""
    if not own_argument(solution, facts):
        return False
    return not public_name(facts.stored.site.function) or not users_call(facts)
