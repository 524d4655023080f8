"""The page's example fix: the first solution's, in the form the user runs the program.

Each solution carries its own fix (drawn in `fix_forms` from what it changes); the page
shows the first that has one. A page whose solutions draw none still gets the fix of the
first setting that decides a condition on its path (a reason's, or the guard of every
caller), when that has a runnable form.

A fix that leaves out a setting the user turned on is not shown below the message's own
advice that keeps it (`advice_first.kept_by_advice`) and has no line to write: the fix is
to show the first way out, and a command line without the user's setting would read as
the one to take.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from errdex.explain.advice_first import kept_by_advice
from errdex.explain.caller_guards import gated_path_entries, guarded_entries, refused_before_call
from errdex.explain.context import Facts
from errdex.explain.expanded import expanded
from errdex.explain.filled_flags import filled_knob
from errdex.explain.fix_forms import setting_fix
from errdex.explain.kept_fields import with_kept_fields
from errdex.explain.knob_actions import knob_action
from errdex.explain.no_action import never_runs
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.passthru import pass_through
from errdex.explain.reached_fix import reached_fix
from errdex.explain.solutions import (
    internal_invariant,
    refused,
    solutions,
    ways_out,
)
from errdex.explain.twins import twin_line
from errdex.facts import ConditionKind


def example_fix(facts: Facts) -> ExampleFix | None:
    """The first solution's fix, else the first setting's with a runnable form."""
    message = facts.stored.site.message
    fix, withheld = shown_fix(solutions(facts), message.text if message is not None else "")
    if fix is not None or withheld:
        return fix
    if pass_through(facts) is not None or never_runs(facts) is not None:
        return None  # no setting fixes the user's own failure; a type checker's branch never runs
    candidates = [*ways_out(facts), *(expanded(c, facts) for c in ways_out(facts))]
    if internal_invariant(facts):
        # an assert on the program's own state: a mode that returns early, or keeps a
        # caller from calling, is no solution, and so no fix either (an exit a solution
        # of the page takes, the input's own, keeps its fix)
        taken = {s.condition for s in solutions(facts)}
        candidates = [
            c for c in candidates if c.kind is not ConditionKind.EARLY_EXIT or c.text in taken
        ]
    else:
        # a caller's guard only where every caller's is that setting's (`caller_guards`)
        candidates.extend(
            entry.condition
            for entry in guarded_entries(facts)
            if not refused_before_call(entry, facts)  # no way out: no fix either
        )
        candidates.extend(entry.condition for entry in gated_path_entries(facts))
    for variant in facts.variants:
        candidates.extend(variant.conditions)
    hidden = {s.condition for s in facts.hidden}  # switches that only hide the error
    hidden |= {e.condition for e in facts.exempted}  # settings that spare another check
    for condition in candidates:
        if condition.text in hidden:
            continue
        if twin_line(condition, facts) is not None:
            continue  # another value of it meets the same check
        action = knob_action(condition, facts.knobs)
        if action is None or (not action.drops and refused(action.knob, facts)):
            continue
        if action.drops and filled_knob(action.knob, facts):
            continue  # the code makes a default one when it is left out: no way out
        # a JSON flag's other fields the path holds, in both lines (or no fix reaches)
        fix = setting_fix(with_kept_fields(action, condition, facts), condition, facts.knobs)
        fix = reached_fix(fix, action.knob, facts, condition.text) if fix is not None else None
        if fix is not None:
            return fix
    return None


def shown_fix(ranked: Sequence[Solution], message: str = "") -> tuple[ExampleFix | None, bool]:
    """The fix of the first solution that has one, and whether it was withheld: one that
    gives up a setting the message's advice, ranked above it with no fix, keeps. Then no
    fix is shown (a later one would not be the first way out either), unless the setting
    left out holds the value the message rejects (`{backend.name} is not supported`):
    leaving that out lets the program choose one it takes."""
    for index, solution in enumerate(ranked):
        if solution.fix is None:
            continue
        keeps = any(kept_by_advice(s, solution) for s in ranked[:index] if s.fix is None)
        if keeps and not _rejected_value(solution, message):
            return None, True
        return solution.fix, False
    return None, False


def _rejected_value(solution: Solution, message: str) -> bool:
    """Whether the value the solution leaves out (`backend` of `backend is not None and
    ...`) is one the message's text shows (`{backend.name}`, `{backend!r}`)."""
    subject = (solution.condition or "").partition(" is not None")[0]
    if not subject or not subject.replace(".", "_").isidentifier():
        return False
    return re.search(r"\{" + re.escape(subject) + r"[.!:}\[]", message) is not None
