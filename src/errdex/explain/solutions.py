"""Solutions: each condition on the way to the site, negated, is a way out.

The site's own conditions come first, then the guard under which its direct callers call
it, then the conditions that add each reason to a reasons list. A way out that a knob
controls names the knob and what to do with it; the others say what must hold instead.
"""

from __future__ import annotations

import ast

import msgspec

from errdex.explain.context import CONTEXT_KINDS, Facts
from errdex.explain.knob_actions import KnobAction, knob_action
from errdex.explain.page import ConditionView, ExampleFix, Solution
from errdex.explain.plain import code, plain_condition
from errdex.extract.conditions import negate
from errdex.facts import Condition

MAX_SOLUTIONS = 10
_MAX_VARIANTS = 6


def negated(condition: ConditionView) -> Condition:
    """The condition that avoids the site: the opposite of what holds on its path."""
    try:
        node = ast.parse(condition.text, mode="eval").body
        text = ast.unparse(negate(node))
    except (SyntaxError, ValueError, RecursionError):
        text = f"not ({condition.text})"
    return Condition(
        test=condition.test,
        kind=condition.kind,
        holds=not condition.holds,
        line=condition.line,
        text=text,
    )


def opposite_words(condition: ConditionView) -> str:
    opposite = negated(condition)
    return plain_condition(opposite) or code(opposite.statement)


def solutions(facts: Facts) -> list[Solution]:
    with_knob: list[Solution] = []
    without: list[Solution] = []

    def add(solution: Solution) -> None:
        bucket = with_knob if solution.knob else without
        if all(s.text != solution.text for s in (*with_knob, *without)):
            bucket.append(solution)

    reasons_list = _reasons_variable(facts)
    for condition in facts.held:
        if reasons_list and reasons_list in _names(condition.text):
            continue  # the list is non-empty: the reasons below say why
        action = knob_action(condition, facts.knobs) or knob_action(
            expanded(condition, facts), facts.knobs
        )
        words = opposite_words(condition)
        if action is not None:
            add(_knob_solution(action, f"so that {words}", condition))
        else:
            add(
                Solution(
                    text=f"Make sure that {words} (line {condition.line}).",
                    condition=condition.text,
                )
            )
    for caller, guard in facts.caller_guards:
        callee = code(facts.stored.site.function)
        for condition in guard:
            action = knob_action(condition, facts.knobs)
            when = condition.plain or code(condition.text)
            reason = f"{code(caller.function)} calls {callee} only when {when}"
            if action is not None:
                add(_knob_solution(action, reason, condition))
            elif len(facts.caller_guards) == 1:
                add(
                    Solution(
                        text=f"Make sure that {opposite_words(condition)}: {reason} "
                        f"({caller.file}:{caller.line}).",
                        condition=condition.text,
                    )
                )
    for variant in facts.variants[:_MAX_VARIANTS]:
        held = [c for c in variant.conditions if c.kind not in CONTEXT_KINDS]
        if not held:
            continue
        prefix = f"If the message names “{variant.reason}”: "
        for condition in reversed(held):
            action = knob_action(condition, facts.knobs)
            if action is not None:
                reason = f"so that {opposite_words(condition)}"
                add(_knob_solution(action, reason, condition, prefix))
                break
        else:
            last = held[-1]
            add(
                Solution(
                    text=f"{prefix}make sure that {opposite_words(last)} "
                    f"({variant.file}:{last.line}).",
                    condition=last.text,
                )
            )
    return (with_knob + without)[:MAX_SOLUTIONS]


def _knob_solution(
    action: KnobAction, reason: str, condition: ConditionView, prefix: str = ""
) -> Solution:
    if action.part is not None and reason.startswith("so that"):
        part = ConditionView(
            text=action.part, test=action.part, kind=condition.kind, holds=True, line=condition.line
        )
        reason = f"so that {opposite_words(part)}"
    text = action.text if not prefix else prefix + action.text[0].lower() + action.text[1:]
    return Solution(text=f"{text} ({reason}).", knob=action.knob, condition=condition.text)


def example_fix(facts: Facts) -> ExampleFix | None:
    """Before and after for the first knob a solution turns, when its values are known."""
    candidates = [*facts.held, *(expanded(c, facts) for c in facts.held)]
    for _, guard in facts.caller_guards:
        candidates.extend(guard)
    for variant in facts.variants:
        candidates.extend(variant.conditions)
    for condition in candidates:
        action = knob_action(condition, facts.knobs)
        if action is not None and action.before and action.after:
            note = action.note or f"{code(action.knob)} decides {code(condition.text)}."
            return ExampleFix(before=action.before, after=action.after, note=note)
    return None


class _Inline(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.values.get(node.id, node)


def expanded(condition: ConditionView, facts: Facts) -> ConditionView:
    """The condition with its locals replaced by what they were assigned:
    `has_graphs` becomes `mode != NONE and not config.enforce_eager`."""
    values: dict[str, ast.expr] = {}
    for binding in facts.bindings:
        if binding.origin != "local":
            continue
        try:
            values[binding.name] = ast.parse(binding.value, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
    if not values:
        return condition
    try:
        tree = ast.parse(condition.text, mode="eval").body
        text = ast.unparse(_Inline(values).visit(tree))
    except (SyntaxError, ValueError, RecursionError):
        return condition
    if text == condition.text:
        return condition
    return msgspec.structs.replace(condition, text=text, plain=None)


def _reasons_variable(facts: Facts) -> str | None:
    """The local list a reasons message joins (`unsupported`), when the site has reasons."""
    if not facts.variants:
        return None
    expression = facts.stored.site.reasons_expr
    if not expression:
        return None
    names = [n for n in _names(expression) if n not in ("join", "sorted", "str", "len")]
    return names[-1] if names else None


def _names(text: str) -> set[str]:
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
