"""A yes/no flag left unset on the path: which of its two values to pass.

A `bool | None` field made a flag pair (`--async-scheduling` / `--no-async-scheduling`) is
None when the user gives neither, and the code decides then (`elif x is None:`). Giving a
value avoids that branch, but one of the two values may lead into a sibling branch that
fails on the same configuration: `if x: ... raise ValueError("... use
--no-async-scheduling")`. So each value is followed down the `if`/`elif` chain holding the
site's test: a value that enters (or may enter) a branch that raises (or warns, for a
warning) or that still reaches the site is no way out. Of the values left, the one the
site's own branch assigns (`x = False` after the warning: the state the code picks) comes
first; with both left, either is named; with none, the setting is no way out.

A flag to turn off (`if x:` holds on the path) is the same pair with one value: leaving it
out leaves None, which the code may turn on again (`enable_prefix_caching` defaults to what
the model supports), so `--no-x` is named, and only where False enters no failing branch.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView
from errdex.explain.refused_ways import KnownValues
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import and_parts
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["REFUSED", "settled_unset"]

# `Facts.memo` key: (the condition, the sentence saying why) for each yes/no setting that
# is no way out of a condition: "What it means" says so, not that no setting is behind it
REFUSED = "unset_choice.refused"

# What a branch calls to warn: a logger's warning, `warnings.warn`.
_WARNING_CALLS = frozenset({"warning", "warning_once", "warn", "warn_once"})


def settled_unset(action: KnobAction, condition: ConditionView, facts: Facts) -> KnobAction | None:
    """`action` (a flag pair offered for a name the path holds None, a flag to turn off, or
    a plain yes/no flag given or left out) with the value to pass: the one of its values
    that takes no failing branch of the chain the test is in. A pair stays as it is when
    the chain says nothing of the name (no `if` of the site's function tests it there: an
    `assert`, a local standing for it); None when every value fails."""
    if action.unset is None:
        return action
    name, positive, negative = action.unset
    head = _chain_head(facts.site_function(), condition.line)
    if head is None or not any(_mentions(t, name) for t, _, _ in _branches(head)):
        if action.values == (False,) and negative:
            return _given(action, False, None)  # no chain read: `--no-x` fails the test itself
        return replace(action, unset=None)
    line = facts.stored.site.line
    warning = facts.stored.site.kind in (SiteKind.LOG, SiteKind.WARN)
    known = _path_equalities(facts)
    failing = {v: _entered_failing(head, name, v, known, line, warning) for v in (True, False)}
    safe = [v for v in action.values if failing[v] is None]
    if not safe:
        facts.memo.setdefault(REFUSED, []).append((condition.text, _refused(action, failing)))
        return None
    if not negative:
        return replace(action, unset=None)  # a plain flag: given or left out, as it said
    if len(safe) == 2:
        assigned = _assigned_in_site_branch(head, name, line)
        if assigned is None:
            return replace(action, unset=None)
        safe = [assigned]
    value = safe[0]
    aside = None
    bad = failing[not value]
    if bad is not None and (not value) in action.values:
        branch, surely, what = bad
        takes = "takes" if surely else "may take"
        other = negative if value else positive
        aside = f"Not `{other}`: it {takes} the branch at line {branch}, which {what}."
    return _given(action, value, aside)


def _refused(action: KnobAction, failing: dict[bool, tuple[int, bool, str] | None]) -> str:
    """What "What it means" says of a setting no value of which is a way out."""
    assert action.unset is not None
    _, positive, negative = action.unset
    if len(action.values) == 2:
        what = f"Neither `{positive}` nor `{negative}` is a sure way out"
    elif action.values == (True,):
        what = f"Passing `{positive}` is no sure way out"
    elif negative:
        what = f"Passing `{negative}` is no sure way out"
    else:
        what = f"Leaving `{positive}` out is no sure way out"
    found = failing[action.values[0]]
    assert found is not None
    line, surely, does = found
    runs = "then runs" if surely else "may then run"
    return f"{what}: the branch at line {line} {runs}, which {does}."


def _mentions(test: ast.expr | None, name: str) -> bool:
    return test is not None and any(
        dotted_name(n) == name for n in walk(test) if isinstance(n, ast.Name | ast.Attribute)
    )


def _path_equalities(facts: Facts) -> dict[str, object]:
    """`x == "pooling"` parts of the conditions the path holds: the name's value there, so a
    sibling's `x == "generate"` is known false."""
    known: dict[str, object] = {}
    for condition in facts.conditions:
        node = parse_expression(condition.text)
        if node is None:
            continue
        for part in and_parts(node):
            if (
                isinstance(part, ast.Compare)
                and len(part.ops) == 1
                and isinstance(part.ops[0], ast.Eq)
                and isinstance(part.comparators[0], ast.Constant)
                and (held := dotted_name(part.left)) is not None
            ):
                known[held] = part.comparators[0].value
    return known


def _given(action: KnobAction, value: bool, aside: str | None) -> KnobAction:
    """The action settled on `value`: its flag form named, the fix drawn from it."""
    assert action.unset is not None
    _, positive, negative = action.unset
    return replace(
        action,
        text=f"Pass `{positive if value else negative}`",
        keyword=repr(value),
        unset=None,
        was_unset=action.values != (False,),
        negative=not value,
        aside=aside,
    )


def _chain_head(function: ast.FunctionDef | None, line: int) -> ast.If | None:
    """The first `if` of the `if`/`elif` chain whose branch tests on `line` (the line of
    the `if`, or of its test where that is written below an `elif (`)."""
    if function is None:
        return None
    guard: ast.If | None = None
    parents: dict[int, ast.If] = {}
    for node in walk(function):
        if not isinstance(node, ast.If):
            continue
        if line in (node.lineno, node.test.lineno):
            guard = node
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            parents[id(node.orelse[0])] = node
    head = guard
    while head is not None and id(head) in parents:
        head = parents[id(head)]
    return head


def _branches(head: ast.If) -> list[tuple[ast.expr | None, list[ast.stmt], int]]:
    """(test, body, line) of each branch of the chain in order; the final `else` with no
    test (its line that of its first statement)."""
    out: list[tuple[ast.expr | None, list[ast.stmt], int]] = []
    node: ast.If = head
    while True:
        out.append((node.test, node.body, node.lineno))
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            continue
        if node.orelse:
            out.append((None, node.orelse, node.orelse[0].lineno))
        return out


def _entered_failing(
    head: ast.If,
    name: str,
    value: bool,
    known: dict[str, object],
    site_line: int,
    warning: bool,
) -> tuple[int, bool, str] | None:
    """The first branch `value` enters, or may enter, that fails or holds the site: (its
    line, whether it surely enters, what it does); None when it enters none."""
    values = {**known, name: value}
    for test, body, line in _branches(head):
        truth = True if test is None else KnownValues(values).truth_of(test)
        if truth is False:
            continue
        if _holds_line(body, site_line):
            return line, truth is True, "holds this check"
        failure = _failure(body, warning)
        if failure is not None:
            return line, truth is True, failure
        if truth is True:
            return None
    return None


def _holds_line(body: list[ast.stmt], line: int) -> bool:
    return any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in body)


def _failure(body: list[ast.stmt], warning: bool) -> str | None:
    """ "can raise" when the branch may raise (any `raise` in it, a nested function's aside,
    read as failing even under a test of its own); "can warn" when it may warn and the site is
    a warning; else None."""
    warns = False
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Raise):
            return "can raise"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _WARNING_CALLS
        ):
            warns = True
        todo.extend(ast.iter_child_nodes(node))
    return "can warn" if warns and warning else None


def _assigned_in_site_branch(head: ast.If, name: str, site_line: int) -> bool | None:
    """The boolean the branch holding the site assigns `name` (`x = False` after the
    warning), when it assigns one."""
    for _, body, _ in _branches(head):
        if not _holds_line(body, site_line):
            continue
        for node in body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and dotted_name(node.targets[0]) == name
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, bool)
            ):
                return node.value.value
    return None
