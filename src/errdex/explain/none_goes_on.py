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
from errdex.extract.shapes import is_none
from errdex.facts import SiteKind


def none_goes_on(condition: ConditionView, facts: Facts) -> tuple[str, int] | None:
    """NAME and the line where the function reads it after the `if`, when `condition` is
    the test of that `if`, which guards the site's `assert NAME is not None`."""
    site = facts.stored.site
    if site.kind != SiteKind.ASSERT:
        return None
    function = facts.site_function()
    name = _asserted_name(function, site.line) if function is not None else None
    if function is None or name is None:
        return None
    path = holding_path(function.body, site.line)
    if not path:
        return None
    guard, block, index = path[-1]
    # the assert in the body of the `if` itself: the other way skips it and goes on after
    # the `if` (not an `elif` or `else` of a chain, whose other way is another branch)
    if not (
        isinstance(guard, ast.If)
        and guard.lineno == condition.line
        and any(s.lineno == site.line for s in guard.body)
    ):
        return None
    line = _first_read(block[index + 1 :], name)
    return (name, line) if line is not None else None


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


def _asserted_name(function: ast.FunctionDef, line: int) -> str | None:
    """NAME of the `assert NAME is not None` at `line`."""
    for node in walk(function):
        if isinstance(node, ast.Assert) and node.lineno == line:
            test = node.test
            if (
                isinstance(test, ast.Compare)
                and isinstance(test.left, ast.Name)
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.IsNot)
                and is_none(test.comparators[0])
            ):
                return test.left.id
            return None
    return None
