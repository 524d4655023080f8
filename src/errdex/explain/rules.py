"""The deterministic explainer: what an error means, when it happens and how to avoid it,
in sentences made only from the facts (conditions, callers, knobs, the exception class).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from errdex.explain.knob_actions import knob_action
from errdex.explain.page import (
    Caller,
    ConditionView,
    ExampleFix,
    Knob,
    Solution,
    VariantView,
    WhenItHappens,
)
from errdex.explain.plain import code, plain_condition
from errdex.extract.conditions import negate
from errdex.facts import Condition, ConditionKind, SiteKind
from errdex.store.base import StoredSite

# Conditions a user cannot turn off: they say where the code is, not what went wrong.
_CONTEXT_KINDS = frozenset({"loop", "except", "with"})
_MAX_SOLUTIONS = 8


@dataclass
class Explanation:
    what_it_means: str
    when_it_happens: WhenItHappens
    solutions: list[Solution] = field(default_factory=list)
    example_fix: ExampleFix | None = None


@dataclass
class Facts:
    """What the explainer reads: the site and what the linker found around it."""

    stored: StoredSite
    conditions: list[ConditionView]
    variants: list[VariantView] = field(default_factory=list)
    callers: list[Caller] = field(default_factory=list)
    knobs: list[Knob] = field(default_factory=list)
    docstring: str | None = None


def explain(facts: Facts) -> Explanation:
    return Explanation(
        what_it_means=what_it_means(facts),
        when_it_happens=when_it_happens(facts),
        solutions=solutions(facts),
        example_fix=example_fix(facts),
    )


def _actor(stored: StoredSite) -> str:
    site = stored.site
    function = site.function
    where = "at module level" if function == "<module>" else f"in {code(function)}"
    return f"{where} ({stored.file}:{site.line})"


def _verb(stored: StoredSite) -> str:
    site = stored.site
    exception = stored.exception.name if stored.exception else site.exception
    match site.kind:
        case SiteKind.RAISE | SiteKind.HELPER:
            return f"raises {code(exception or 'an exception')}"
        case SiteKind.RERAISE:
            return f"re-raises the caught {code(exception)}" if exception else "re-raises"
        case SiteKind.ASSERT:
            return "fails an `assert` (AssertionError)"
        case SiteKind.WARN:
            return f"warns ({code(exception or 'UserWarning')})"
        case SiteKind.LOG:
            return f"logs at {site.level or 'error'} level"
        case SiteKind.EXIT:
            return "exits the program (SystemExit)"
    return "reports this error"


def what_it_means(facts: Facts) -> str:
    stored = facts.stored
    sentences = [f"The code {_actor(stored)} {_verb(stored)}"]
    held = [c for c in facts.conditions if c.kind not in _CONTEXT_KINDS]
    if held:
        words = "; ".join(c.plain or code(c.text) for c in held)
        sentences[0] += f" when all of these hold: {words}."
    else:
        sentences[0] += " whenever it is reached; no condition guards it in its function."
    if facts.variants:
        reasons = ", ".join(code(v.reason) for v in facts.variants[:6])
        more = f" and {len(facts.variants) - 6} more" if len(facts.variants) > 6 else ""
        sentences.append(f"The message lists the reasons that apply, among: {reasons}{more}.")
    if facts.docstring:
        first = facts.docstring.strip().split("\n\n")[0].replace("\n", " ").strip()
        name = stored.exception.name if stored.exception else "the exception"
        sentences.append(f"{code(name)} is documented as: “{first}”")
    return " ".join(sentences)


def when_it_happens(facts: Facts) -> WhenItHappens:
    stored = facts.stored
    function = stored.site.function
    if function == "<module>":
        trigger = f"When the module {code(stored.module)} is imported"
    else:
        trigger = f"When {code(function)} runs"
    held = [c for c in facts.conditions if c.kind not in _CONTEXT_KINDS]
    if held:
        trigger += " and " + "; ".join(c.plain or code(c.text) for c in held)
    trigger += "."
    situations: list[str] = []
    for caller in facts.callers:
        guard = f" when {' and '.join(code(g) for g in caller.guard)}" if caller.guard else ""
        situations.append(
            f"{code(caller.function)} calls it ({caller.file}:{caller.line}){guard}."
        )
    for knob in facts.knobs:
        if knob.kind in ("env", "flag"):
            kind = "environment variable" if knob.kind == "env" else "command-line flag"
            situations.append(f"The {kind} {code(knob.name)} takes part in the conditions.")
    return WhenItHappens(trigger=trigger, situations=situations)


def negated(condition: ConditionView) -> Condition:
    """The condition that avoids the site: the opposite of what holds on its path."""
    try:
        node = ast.parse(condition.text, mode="eval").body
        text = ast.unparse(negate(node))
    except (SyntaxError, ValueError, RecursionError):
        text = f"not ({condition.text})"
    return Condition(
        test=condition.test,
        kind=ConditionKind(condition.kind),
        holds=not condition.holds,
        line=condition.line,
        text=text,
    )


def solutions(facts: Facts) -> list[Solution]:
    out: list[Solution] = []
    for condition in facts.conditions:
        if condition.kind in _CONTEXT_KINDS:
            continue
        opposite = negated(condition)
        words = plain_condition(opposite) or code(opposite.statement)
        action = knob_action(condition, facts.knobs)
        if action is not None:
            out.append(
                Solution(
                    text=f"{action.text} (so that {words}).",
                    knob=action.knob,
                    condition=condition.text,
                )
            )
        else:
            out.append(
                Solution(
                    text=f"Make sure that {words} (line {condition.line}).",
                    condition=condition.text,
                )
            )
    out.sort(key=lambda s: s.knob is None)  # what a user can turn first
    return out[:_MAX_SOLUTIONS]


def example_fix(facts: Facts) -> ExampleFix | None:
    for condition in facts.conditions:
        action = knob_action(condition, facts.knobs)
        if action is not None and action.before and action.after:
            return ExampleFix(before=action.before, after=action.after, note=action.note)
    return None
