"""Ways out of "more than one match": the optional keywords that narrow a lookup.

A lookup that walks a collection, keeps what matches and raises on a second match
(httpx's `Cookies.get(name, domain=None, path=None)`: `if domain is None or cookie.domain
== domain` inside `for cookie in self.jar`) lets the caller narrow the match with optional
parameters that default to None: left out, each filter lets everything through. The way out
is passing them. A condition `p is None or <test on p>` on the path to a raise inside a loop,
with `p` a parameter of the public function defaulting to None, says so.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.input_nodes import none_compared
from errdex.explain.inputs import public_name
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.explain.user_call import call_change
from errdex.facts import ConditionKind, SiteKind


def narrowing_solution(facts: Facts, open_conditions: list[ConditionView]) -> Solution | None:
    """ "Pass `domain` (or `path`) to `Cookies.get` ...", or None."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or not public_name(site.function):
        return None
    loops = [c for c in facts.conditions if c.kind == ConditionKind.LOOP]
    if not loops:
        return None  # no collection walked: no match to narrow
    item = _loop_item(loops[-1].text)
    read = facts.read
    found: list[tuple[str, ConditionView]] = []
    for condition in open_conditions:
        param = _filter_param(condition.text)
        if (
            param is not None
            and param in read.params
            and read.defaults.get(param) == "None"
            and param not in read.positional
        ):
            found.append((param, condition))
    if not found:
        return None
    callee = site.function.removesuffix(".__init__")
    names = " or ".join(code(p) for p, _ in found)
    lines = ", ".join(str(c.line) for _, c in found)
    first, condition = found[0]
    return Solution(
        text=(
            f"Pass {names} to {code(callee)} so that only one {item} matches: left out "
            f"(None), {'it lets' if len(found) == 1 else 'they let'} every {item} through the "
            f"filter at line{'s' if len(found) > 1 else ''} {lines}, and this is raised on "
            "the second match."
        ),
        condition=condition.text,
        kind="input",
        change=call_change(facts, first, None, first.upper()),
    )


def _loop_item(header: str) -> str:
    """The loop's variable in code (`cookie` of `for cookie in self.jar`), or "item"."""
    try:
        node = ast.parse(header.rstrip(":") + ": pass").body[0]
    except (SyntaxError, ValueError, RecursionError):
        return "item"
    if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
        return code(node.target.id)
    return "item"


def _filter_param(text: str) -> str | None:
    """`p is None or x == p` (either order of the two parts): the parameter `p`."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2):
        return None
    for unset, test in (node.values, reversed(node.values)):
        compared = none_compared(unset)
        if compared is None or not compared[1]:
            continue
        name = compared[0]
        if any(isinstance(n, ast.Name) and n.id == name for n in walk(test)):
            return name
    return None
