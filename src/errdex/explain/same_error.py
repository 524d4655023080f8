"""Another raise of the same error beyond a test: flipping that test is no way out.

vllm's `fused_topk_bias` raises "Unsupported scoring function: {scoring_func}" in the
branch for aiter's fused MoE (line 319) and again in the branch without it (line 256),
for the same scoring functions: turning aiter's MoE off (`VLLM_ROCM_USE_AITER_MOE=0`)
only moves the user to the other raise. A site of the same function with the same
message whose path holds the opposite of one of this site's tests is that
raise; a setting that flips the test is not offered.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.extract.conditions import dotted_names
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["leads_to_same_error", "same_error_paths"]

_MAX_SIBLINGS = 4


def same_error_paths(store: Store, stored: StoredSite) -> list[frozenset[tuple[int, str, bool]]]:
    """The tests (line, test, polarity) on the paths of the other sites of the function
    of the same kind with the same message."""
    message = stored.site.message
    if message is None:
        return []
    paths: list[frozenset[tuple[int, str, bool]]] = []
    for neighbour in store.neighbours(stored.version_id, stored.file):
        if (
            neighbour.id == stored.id
            or neighbour.function != stored.site.function
            or neighbour.kind != stored.site.kind
            or neighbour.message != message.text
        ):
            continue
        for other in store.get_error(neighbour.id):
            if other.version_id == stored.version_id and other.site.line == neighbour.line:
                paths.append(frozenset((c.line, c.test, c.holds) for c in other.site.conditions))
        if len(paths) >= _MAX_SIBLINGS:
            break
    return paths


def leads_to_same_error(condition: ConditionView, changed: str, facts: Facts) -> bool:
    """Whether the opposite of `condition`'s test is on the path of the same error raised
    elsewhere in the function, and nothing else on that path reads what the way out
    changes (`changed`: the test or the part of it the setting decides): a later test
    of the same name may keep the other raise from happening."""
    opposite = (condition.line, condition.test, not condition.holds)
    names = _names(changed)
    if not names:
        return False
    for path in facts.same_error_paths:
        if opposite not in path:
            continue
        others = (test for line, test, _ in path if (line, test) != opposite[:2])
        if not any(names & _names(test) for test in others):
            return True
    return False


def _names(text: str) -> set[str]:
    try:
        return set(dotted_names(ast.parse(text, mode="eval")))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
