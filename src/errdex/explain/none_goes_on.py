"""A setting that only skips an `assert x is not None` lets the None go on.

vllm's LMCache connector: `if self.skip_last_n_tokens > 0: assert token_ids is not None;
token_ids = token_ids[: -self.skip_last_n_tokens]`, then `self.lookup_client.lookup(token_ids,
...)`. With the setting at 0 the assert is skipped, and the None it refused is handed on to
`lookup` and to the request's later checks. Turning the guard off is no way out of a None
that the function goes on to use after the guarded block: the value has to come right (and
the page says so in "What it means" as before). A None the function does not read again
after the block is left to the other rules.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, holding_path
from errdex.explain.page import ConditionView
from errdex.extract.shapes import is_not_none
from errdex.facts import SiteKind


def none_goes_on(condition: ConditionView, facts: Facts) -> tuple[str, int] | None:
    """NAME and the line where the function reads it after the `if`, when `condition` is
    the test of that `if`, which guards the site's `assert NAME is not None`. (Asked by the
    solutions and by "What it means": worked out once a page.)"""
    if facts.stored.site.kind != SiteKind.ASSERT:
        return None
    return facts.once(f"none_goes_on:{condition.line}", lambda: _goes_on(condition, facts))


def _goes_on(condition: ConditionView, facts: Facts) -> tuple[str, int] | None:
    site = facts.stored.site
    function = facts.site_function()
    path = holding_path(function.body, site.line) if function is not None else []
    if len(path) < 2:
        return None
    statement, in_block, _ = path[-1]
    guard, block, index = path[-2]
    asserted = is_not_none(statement.test) if isinstance(statement, ast.Assert) else None
    # the assert in the body of the `if` itself: the other way skips it and goes on after
    # the `if` (not an `elif` or `else` of a chain, whose other way is another branch)
    if not (
        isinstance(asserted, ast.Name)
        and isinstance(guard, ast.If)
        and guard.lineno == condition.line
        and in_block is guard.body
    ):
        return None
    line = _first_read(block[index + 1 :], asserted.id)
    return (asserted.id, line) if line is not None else None


def _first_read(statements: list[ast.stmt], name: str) -> int | None:
    """The line of the first statement of `statements` that reads `name`; None when one
    binds it anew first (`token_ids = fetch()`: the None is gone) or none reads it."""
    for statement in statements:
        reads = [
            n.lineno
            for n in walk(statement)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        ]
        if isinstance(statement, ast.Assign | ast.AnnAssign) and not reads:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return None
        if reads:
            return min(reads)
    return None
