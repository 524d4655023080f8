"""Ways out that keep what the user asked for rank before those that give it up.

Leaving out a flag the check reads ("Do not pass `--speculative-config` in any form") gives
up the feature the user turned on; giving the same flag the value the check takes keeps it,
and comes first. At a raise in place of a failed import of another distribution's module,
installing it keeps the path the user took; an argument or a setting that steers away from
the import (another proxy scheme than the SOCKS one that needs the package) gives that path
up, and comes after the install. So does one that gives up the feature whose package or
library the message says must be newer ("fastokens >= 0.2.0 is required when
VLLM_USE_FASTOKENS=1"): the upgrade it asks for keeps it; and one that drops an argument
where the message says what another argument must be ("'default' must be a list when
'multiple' is true": dropping `multiple` gives up what the user asked), or one that changes
the argument the message says it must match ("'default' length must match nargs": `nargs`).
A module of the project's own is no package to install: there the order stays. Emptying a
function's `*args` or `**kwargs` gives up everything passed through it ("pass no keyword to
`URL`" where the message names the type each keyword takes): it comes after every other
way out. A folder setting unset gives up the user's folder where the check only asks for a
path that is there: the path comes first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from errdex.explain.advised import MESSAGE_FIRST, STATED_REQUIREMENTS, STATED_VERSIONS
from errdex.explain.context import Facts
from errdex.explain.input_words import SPREAD_LEFT_OUT
from errdex.explain.page import Solution
from errdex.explain.path_tests import PATH_WORDS, SUPPLIED
from errdex.facts import ConditionKind

# How the input rules word giving an argument up, for a solution with no change as data.
_DROPS_ARGUMENT = re.compile(
    r"\bleave\b.*\bout\b|\ban empty \(false\) value\b|\bDo not pass\b", re.IGNORECASE
)
_IMPORT_ERRORS = ("ImportError", "ModuleNotFoundError")
# The argument an input way out changes, as the input rules name it.
_ARGUMENT = re.compile(r"\bthe argument `([A-Za-z_]\w*)`")
# How the input rules word emptying an argument.
_EMPTIED = "Pass an empty (false) value for the argument "
# ... and passing None for it.
_NONE_FOR = "Pass None for the argument "


class Ranked(Protocol):
    solution: Solution
    rank: int


def drops_setting(solution: Solution) -> bool:
    """Whether the solution leaves its setting out (or off, or unset): `Solution.drops`,
    from the knob action it was made of."""
    return solution.kind == "setting" and bool(solution.knob) and solution.drops


def drops_argument(solution: Solution) -> bool:
    """Whether an input solution gives its argument up: its change leaves the argument out
    of the call or passes None; one with no change, by the input rules' words."""
    if solution.kind != "input":
        return False
    change = solution.change
    if change is not None and change.form == "call":
        return change.after in (None, "None")
    return _DROPS_ARGUMENT.search(solution.text) is not None


def gives_up_argument(text: str) -> bool:
    """Whether a way out's text, as the input rules word it, only gives its argument up
    (passes None or an empty value for it): no value of the argument that keeps it (not
    "as one of `'a'`, `'b'`, or leave it out", which gives the values)."""
    return text.startswith((_NONE_FOR, _EMPTIED, *SPREAD_LEFT_OUT))


def _gives_value(solution: Solution) -> bool:
    """A setting given the value the check takes: not only named ("Change the flag"), nor
    given a placeholder (`--x VALUE`), nor left out."""
    text = solution.text
    return (
        solution.kind == "setting"
        and not drops_setting(solution)
        and not text.startswith("Change ")
        and " VALUE`" not in text
    )


def _unsets(solution: Solution) -> bool:
    """An environment variable unset: it gives up the value the user set (not marked
    `drops`, since unsetting one the code reads as a switch is its way out)."""
    return solution.kind == "setting" and solution.text.startswith(f"Unset `{solution.knob}`")


def _gives_path(solution: Solution) -> bool:
    """A setting given a path the check finds there (`path_tests`): the user's folder kept."""
    return any(f" {words}" in solution.text for words in (*PATH_WORDS.values(), SUPPLIED))


def keep_first(items: Sequence[Ranked], facts: Facts) -> None:
    """Rank each way out that gives up what was asked after the one that keeps it (in place)."""
    for item in items:
        unset = _unsets(item.solution)
        if not drops_setting(item.solution) and not unset:
            continue
        kept = [
            i.rank
            for i in items
            if i.solution.knob == item.solution.knob
            and _gives_value(i.solution)
            and (not unset or _gives_path(i.solution))
        ]
        if kept and item.rank <= max(kept):
            item.rank = max(kept) + 1
    variadic = _variadic(facts)
    for item in items:
        # every value passed through `*args`/`**kwargs` given up: after any other way out
        if any(_gives_up_variadic(item.solution.text, v) for v in variadic):
            others = [i.rank for i in items if i is not item]
            if others and item.rank <= max(others):
                item.rank = max(others) + 1
    upgrades: list[tuple[str, str]] = facts.memo.get(STATED_VERSIONS, [])
    stated = [i.rank for i in items if any(i.solution.text == u for u, _ in upgrades)]
    # what the message says the user's own argument must be keeps the other arguments
    required: list[str] = facts.memo.get(STATED_REQUIREMENTS, [])
    stated += [i.rank for i in items if i.solution.text in required]
    for item in items:
        # the upgrade the message asks for keeps the feature that a setting turned off, or
        # an argument left out, gives up; and so a setting the sentence names as its case
        # ("is required when VLLM_X=1", "To enable VLLM_X please update ...")
        given_up = drops_setting(item.solution) or drops_argument(item.solution)
        knob = item.solution.knob if item.solution.kind == "setting" else None
        given_up = given_up or any(_names(said, knob) for _, said in upgrades)
        given_up = given_up or _case_argument(item.solution, required)
        if stated and given_up and item.rank <= max(stated):
            item.rank = max(stated) + 1
    installs = [i.rank for i in items if i.solution.kind == "environment"]
    if not installs or not _failed_foreign_import(facts):
        return
    last = max(installs)
    for item in items:
        # what a condition decides (not what the message says to do)
        steers = item.solution.kind in ("input", "setting") and item.solution.condition
        if steers and item.rank != MESSAGE_FIRST and item.rank <= last:
            item.rank = last + 1


def _case_argument(solution: Solution, required: list[str]) -> bool:
    """Whether the input way out changes another argument than the one the message says
    must be so, one the message names as what it must agree with ("'default' length must
    match nargs={nargs}": giving `nargs` up is what the user did not ask)."""
    if solution.kind != "input":
        return False
    change = solution.change
    if change is not None and change.form == "call" and change.argument:
        name = change.argument
    else:
        # a solution with no change as data: the argument as the input rules name it
        changed = _ARGUMENT.search(solution.text)
        if changed is None:
            return False
        name = changed.group(1)
    return any(
        f"the argument `{name}`" not in said
        and re.search(rf"(?<![\w`]){re.escape(name)}(?!\w)", said.partition("“")[2]) is not None
        for said in required
    )


def _names(sentence: str, knob: str | None) -> bool:
    """Whether the sentence names the setting as a word (not `VLLM_X` for `X`)."""
    if not knob:
        return False
    return re.search(rf"(?<![\w-]){re.escape(knob)}(?![\w-])", sentence) is not None


def _gives_up_variadic(text: str, name: str) -> bool:
    """Whether a way out empties the `*args`/`**kwargs` parameter `name` (or leaves out
    what it collects)."""
    if text.startswith(f"{_EMPTIED}`{name}`"):
        return True
    return text.startswith(SPREAD_LEFT_OUT) and re.match(rf"[^`]*`\*\*?{name}`", text) is not None


def _variadic(facts: Facts) -> set[str]:
    """The names of the site's function's `*args` and `**kwargs` parameters."""
    function = facts.site_function()
    if function is None:
        return set()
    return {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}


def _failed_foreign_import(facts: Facts) -> bool:
    """Whether the site is raised in place of an import of another distribution's module."""
    own = facts.stored.module.split(".")[0]
    for condition in facts.conditions:
        if condition.kind != ConditionKind.EXCEPT:
            continue
        if not any(e in condition.text for e in _IMPORT_ERRORS):
            continue
        tried = facts.read.tries.get(condition.line)
        if tried is not None and any(m and m.split(".")[0] not in (own, "") for m in tried.imports):
            return True
    return False
