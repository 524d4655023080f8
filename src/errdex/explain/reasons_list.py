"""The list a reasons message joins (`unsupported` of "... does not support: {', '.join(
unsupported)}"): a test of it says only that some reason holds; each reason's own test
says what puts it there, so that test is no way out and no context of its own.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution

__all__ = ["REASON_NAMED", "reasons_solved", "tests_reasons_list"]

# how a way out of one reason starts: "If the message names “EPLB”: ..."
REASON_NAMED = "If the message names"


def tests_reasons_list(condition: ConditionView, facts: Facts) -> bool:
    """Whether the condition reads the list a reasons message joins: each reason's own
    test says what puts it there, not this one."""
    listed = _reasons_variable(facts)
    return listed is not None and listed in _names(condition.text)


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
    return {n.id for n in walk(tree) if isinstance(n, ast.Name)}


def reasons_solved(condition: ConditionView, facts: Facts, solutions: list[Solution]) -> bool:
    """Whether the condition tests the reasons list and a way out of one of its reasons is
    offered: then the list's test is no context ("no setting behind that" would be false)."""
    return tests_reasons_list(condition, facts) and any(
        s.text.startswith(REASON_NAMED) for s in solutions
    )
