"""What a solution gains once it is found: the check a setting's value then meets (a cap),
the warning the code logs instead of raising, the fallback the code takes on its own, and
the example fix its change draws (with the placeholders a lookup fills from the paste)."""

from __future__ import annotations

import re

import msgspec

from errdex.explain.abstract import subclasses_note
from errdex.explain.context import Facts
from errdex.explain.fix_forms import change_fix
from errdex.explain.override_warning import warned_sentence
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.precondition_fix import precondition_change
from errdex.explain.reached_call import reached_change
from errdex.facts import KnobKind

__all__ = ["with_cap", "with_fallback", "with_fix", "with_warned"]


def with_cap(solution: Solution, facts: Facts) -> Solution:
    """A setting raised past a count: the check its value then meets, and the way past."""
    note = facts.caps.get(solution.knob or "")
    if note is None or not re.search(r"\ba value (?:at least|above)\b", solution.text):
        return solution
    text = solution.text if solution.text.endswith(".") else f"{solution.text}."
    return msgspec.structs.replace(solution, text=f"{text} {note}")


def with_warned(solution: Solution, facts: Facts) -> Solution:
    """A setting that lets the value past the check: the warning the code logs instead."""
    logged = facts.warned.get(solution.condition or "")
    if logged is None or solution.kind != "setting":
        return solution
    message = facts.stored.site.message
    # what the user's own error says needs no quoting again
    note = warned_sentence(facts.stored, logged, message.text if message is not None else "")
    if not note:
        return solution
    text = solution.text if solution.text.endswith(".") else f"{solution.text}."
    return msgspec.structs.replace(solution, text=text + note)


def with_fallback(solution: Solution, facts: Facts) -> Solution:
    """A setting the code falls back from on its own: when setting it is the way out."""
    note = facts.fallbacks.get(solution.knob or "")
    if note is None or solution.kind != "setting" or solution.fix is None:
        return solution
    # only where it turns the variable on (the property's own value when unset): the note
    # says when that is the way out
    turned_on = rf"\b{re.escape(solution.knob or '')}=(?:1|true|True|yes)\b"
    if not re.search(turned_on, solution.fix.after):
        return solution
    return msgspec.structs.replace(solution, text=f"{solution.text} {note}")


def with_fix(solution: Solution, facts: Facts) -> Solution:
    """The solution with the fix its change draws, when it has a change and no fix yet."""
    change = solution.change
    if change is None and solution.text.startswith("First make sure"):
        change = precondition_change(solution.text, facts)  # the method to call first
    if solution.fix is not None or change is None:
        return solution
    if change.form == "call" and change.method is None:
        base = subclasses_note(change.target, facts)
        if base is not None:
            # a base class's call does not run: the subclasses named instead of a fix
            text = solution.text if solution.text.endswith(".") else f"{solution.text}."
            return msgspec.structs.replace(solution, text=f"{text} {base}")
    if change.form == "call":
        reached = reached_change(change, facts)  # its "before" made to reach the check
        if reached is None:
            return solution
        change = reached
    command = next((k.command for k in facts.knobs if k.kind == KnobKind.ENV and k.command), None)
    fix = change_fix(change, command)
    if fix is None:
        return solution
    return msgspec.structs.replace(solution, change=change, fix=_with_fills(fix, facts))


def _with_fills(fix: ExampleFix, facts: Facts) -> ExampleFix:
    """The fix with each placeholder the message prints as Python source (`{json!r}`)
    marked, so that a lookup puts the value from the user's paste in its place."""
    message = facts.stored.site.message
    if message is None:
        return fix
    fills = {}
    for placeholder in message.placeholders:
        word = placeholder.expr.upper()
        printed = placeholder.conversion == "r" and placeholder.expr.isidentifier()
        if printed and re.search(rf"\b{word}\b", fix.before + "\n" + fix.after):
            fills[word] = f"{{{placeholder.expr}!r}}"
    return msgspec.structs.replace(fix, fills=fills) if fills else fix
