"""Ways out through a mode the user's object was made with: an earlier exit on a flag its
constructor took, off by default, whose branch does the work another way.

click's `MultiCommand.invoke` fails with "Missing command." when no subcommand was given,
unless `if self.invoke_without_command:` (a keyword of `Group(...)`, `False` by default)
runs the group itself and returns first. The check is on the command line (the user's way
out), and the author's is to make the group with `invoke_without_command=True`. Only a
flag the constructor sets from its own keyword, with a false default, is taken, and only
when its branch runs more than a bare `return`: `if self.quiet: return` skips the work
instead of doing it, which is no fix.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.facts import ConditionKind

__all__ = ["mode_exits"]

_OFF = frozenset({"False", "None", "0"})


def mode_exits(conditions: list[ConditionView], facts: Facts) -> list[ConditionView]:
    """The earlier exits of `conditions` on a constructor flag, off by default, whose
    branch does the work another way."""
    out: list[ConditionView] = []
    for condition in conditions:
        if condition.kind != ConditionKind.EARLY_EXIT or condition.holds:
            continue
        attr = condition.test.removeprefix("self.")
        if attr == condition.test or not attr.isidentifier():
            continue  # a plain `self.flag` test: the flag turned on takes the branch
        if attr not in facts.read.init_params:
            continue
        if facts.read.defaults.get(condition.test) not in _OFF:
            continue
        if _does_work(facts, condition.line):
            out.append(condition)
    return out


def _does_work(facts: Facts, line: int) -> bool:
    """Whether the `if` at `line` runs a call before it returns (not a bare `return`)."""
    tree = facts.source_tree()
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and node.lineno == line:
            calls = [n for s in node.body for n in ast.walk(s) if isinstance(n, ast.Call)]
            returns = any(isinstance(n, ast.Return) for s in node.body for n in ast.walk(s))
            return returns and bool(calls)
    return False
