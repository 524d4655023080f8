"""The usual way out beside the one the check names: leave the argument out, and let the
function fill it in.

A function often fills in an argument left as None before it checks it (click's
`Parameter.__init__`: `if nargs is None: if self.type.is_composite: nargs =
self.type.arity`), and then refuses a value given that differs (`self.type.is_composite
and nargs != self.type.arity`). Leaving the argument out is then the way out a user takes,
rather than working out the value: it is offered when the value filled in is the one the
check compares with, under guards the check's own conditions hold.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts, function_at
from errdex.explain.input_nodes import conjuncts
from errdex.explain.inputs import public_name
from errdex.explain.page import ChangedArgument, Solution
from errdex.explain.plain import code
from errdex.extract.shapes import is_none_test


@dataclass(frozen=True)
class Filled:
    """`param = value` under `if param is None:`, with the tests between them that hold."""

    param: str
    value: str  # Python source
    line: int
    guards: tuple[str, ...] = ()  # the tests of the `if`s inside the None test, as source


def filled_when_none(found: ast.FunctionDef | None, line: int) -> list[Filled]:
    """The arguments a function fills in when None, before `line`."""
    if found is None:
        return []
    params = {a.arg for a in [*found.args.args, *found.args.kwonlyargs]}
    out: list[Filled] = []
    for node in walk(found):
        if not (isinstance(node, ast.If) and node.lineno < line):
            continue
        param = none_test(node.test)
        if param is None or param not in params:
            continue
        out.extend(_assignments(node.body, param, (), line))
    return out


def left_out_solution(facts: Facts) -> Solution | None:
    """ "Leave `nargs` out": the check compares the argument with the value the function
    fills in for None, under guards the check's conditions hold."""
    function = facts.stored.site.function
    if not public_name(function):
        return None
    held: set[str] = set()
    compared: list[tuple[str, str, str]] = []  # (param, the value compared with, condition)
    for condition in facts.held:
        parsed = conjuncts(condition.text)
        if parsed is None:
            continue
        for part in parsed[1]:
            held.add(ast.unparse(part))
            if (
                isinstance(part, ast.Compare)
                and len(part.ops) == 1
                and isinstance(part.ops[0], ast.NotEq)
                and isinstance(part.left, ast.Name)
            ):
                compared.append((part.left.id, ast.unparse(part.comparators[0]), condition.text))
    params = set(facts.read.params)
    if not any(param in params for param, _, _ in compared):
        return None  # nothing to read the function's source for
    line = facts.stored.site.line
    name = function.rpartition(".")[2]
    found = None if "<locals>" in function else function_at(facts.source_text, name, line)
    filled = filled_when_none(found, line)
    callee = code(function.removesuffix(".__init__"))
    for param, value, tested in compared:
        for fill in filled:
            if (fill.param, fill.value) == (param, value) and set(fill.guards) <= held:
                return Solution(
                    text=(
                        f"Leave the argument {code(param)} of {callee} out (or pass None): "
                        f"the function then sets it to {code(value)} itself (line {fill.line}), "
                        f"the value this check wants."
                    ),
                    condition=tested,
                    kind="input",
                    argument=ChangedArgument(
                        param=param,
                        function=function.removesuffix(".__init__"),
                        value="None",
                        words=f"the argument {code(param)} of {callee}",
                    ),
                )
    return None


def none_test(test: ast.expr) -> str | None:
    """`x is None`: `x`."""
    tested = is_none_test(test)
    return tested.id if isinstance(tested, ast.Name) else None


def _assignments(
    body: list[ast.stmt], param: str, guards: tuple[str, ...], line: int
) -> list[Filled]:
    """`param = value` in a block, and in the `if` branches inside it (an `else` branch's
    guard is the test negated, which no condition of a check holds as written: left out)."""
    out: list[Filled] = []
    for statement in body:
        if statement.lineno >= line:
            break
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == param for t in statement.targets
        ):
            out.append(Filled(param, ast.unparse(statement.value), statement.lineno, guards))
        elif isinstance(statement, ast.If):
            test = ast.unparse(statement.test)
            out.extend(_assignments(statement.body, param, (*guards, test), line))
    return out
