"""Ways out through the value a user passes, read from the code the check's value comes
from: an argument left out that the check only refuses when given (`left_out`), a list where
the code iterates it (`iterated`), a slice of step 1 (`sliced`), a key of the module table a
helper looks the argument up in (`table_lookup`), each object handed to a constructor made
with the keyword its check wants (`item_fields`), how many of the keywords counted to give
(`counted_given`). Ranked before the input rules that read
the condition alone (leaving the argument out gives up what the user asked for)."""

from __future__ import annotations

from errdex.explain.context import Facts
from errdex.explain.counted_given import counted_solution
from errdex.explain.item_fields import item_field_solution
from errdex.explain.iterated import iterated_solution
from errdex.explain.left_out import left_out_solution
from errdex.explain.page import ConditionView, Solution
from errdex.explain.sliced import slice_step_solution
from errdex.explain.table_lookup import table_solution


def passed_solutions(conditions: list[ConditionView], facts: Facts) -> list[Solution]:
    """The ways out through a value passed, best first."""
    found = [
        left_out_solution(facts),
        iterated_solution(facts),
        slice_step_solution(conditions, facts),
        table_solution(facts),
        item_field_solution(conditions, facts),
        counted_solution(conditions, facts),
    ]
    return [s for s in found if s is not None]
