"""A part of the value given that closes what no earlier part of it opened: the value is the
way out.

rich's `markup.render(markup)` walks the parts of its text (`for position, plain_text, tag
in _parse(markup)`), puts each opening part on a list of its own (`style_stack.append(...)`)
and, at a closing part, takes one off again under a `try`: `pop()` (`pop =
style_stack.pop`), or `pop_style(name)`, a function it defines that looks the name up in
that list and raises `KeyError`. The `except` raises "closing tag '[/]' at position 7 has
nothing to close". Nothing but the value given fills that list, so the fault is a part of it
that closes what no earlier part opened, and the way out is the value passed, not a setting
or the program's state. Offered only where the list is a fresh local (`[]`, assigned once),
every addition to it sits in the loop over the function's parameter, the `try` sits in that
loop too, the clause catches what an empty list or a missed item raises (`IndexError`,
`KeyError`, `LookupError`), and the function is one a user calls.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.page import Solution
from errdex.explain.parsed_value import user_try
from errdex.explain.plain import caught_names, code
from errdex.explain.private_names import private_name
from errdex.explain.user_data import local_sources
from errdex.facts import Placeholder, SiteKind

__all__ = ["closed_unopened_solution"]

_MISSES = frozenset({"IndexError", "KeyError", "LookupError"})
_TAKES = frozenset({"pop", "popleft"})
_ADDS = frozenset({"append", "appendleft", "insert", "extend"})
_Def = ast.FunctionDef | ast.AsyncFunctionDef


def closed_unopened_solution(facts: Facts) -> Solution | None:
    """ "Change the `markup` you pass to `render`: … the part the message shows closes what
    no earlier part of `markup` opened"; else None."""
    site = facts.stored.site
    found = user_try(facts) if site.kind == SiteKind.RAISE else None
    if found is None or not caught_names(found.clause.text) & _MISSES:
        return None
    function, statement, _, clause = found
    sources = local_sources(function)
    stacks = _fresh_lists(sources)
    if not stacks:
        return None
    methods = _bound_methods(sources, stacks)
    taken = _taken(statement, stacks, methods, _taking_helpers(function, stacks, methods))
    if len(taken) != 1:
        return None  # no list of its own, or several: which one came up short is unknown
    ((stack, taking),) = taken.items()
    loop = _loop_around(function, statement)
    if loop is None:
        return None
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args)} | {
        a.arg for a in function.args.kwonlyargs
    }
    read = names_read(loop.iter)
    given = (read & params) - {"self", "cls"}
    # the loop reads the parameter and nothing else the function computed (names of the
    # module and builtins aside): `_parse(markup)`, not `zip(markup, widths)`
    if len(given) != 1 or (read - given) & sources.keys():
        return None
    param = given.pop()
    if private_name(param):
        return None
    adds = _adds(function, stack, methods)
    if not adds or any(not _inside(a, loop) for a in adds):
        return None  # filled elsewhere too, or never: not the value's own parts alone
    callee = code(site.function.rpartition(".")[2])
    shown = site.message is not None and any(isinstance(p, Placeholder) for p in site.message.parts)
    part = "the part the message shows" if shown else "a part of it"
    text = (
        f"Change the {code(param)} you pass to {callee}: the loop at line {loop.lineno} "
        f"reads it part by part ({code(_short(loop.iter))}) and puts an item on "
        f"{code(stack)} for each part that opens one (line {adds[0].lineno}), and "
        f"{code(taking)} (the `try` at line {statement.body[0].lineno}) takes one off for a "
        f"part that closes one. It found none there, so {part} closes "
        f"what no earlier part of {code(param)} opened (or what an earlier part closed "
        "already): open it before that part, or leave that part out."
    )
    return Solution(text=text, condition=clause.text, kind="input")


def _fresh_lists(sources: dict[str, list[ast.AST]]) -> set[str]:
    """The locals assigned once, an empty list (`stack = []`, `stack: List[X] = []`)."""
    return {
        name
        for name, values in sources.items()
        if len(values) == 1 and isinstance(values[0], ast.List) and not values[0].elts
    }


def _bound_methods(
    sources: dict[str, list[ast.AST]], stacks: set[str]
) -> dict[str, tuple[str, str]]:
    """`pop` of `pop = stack.pop`, assigned once: the local → (the list, the method)."""
    out: dict[str, tuple[str, str]] = {}
    for name, values in sources.items():
        if len(values) != 1:
            continue
        value = values[0]
        if (
            isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Name)
            and value.value.id in stacks
            and value.attr in _TAKES | _ADDS
        ):
            out[name] = (value.value.id, value.attr)
    return out


def _method_call(node: ast.AST, methods: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """(the list, the method) of `stack.pop(...)`, or of `pop(...)` for a bound method."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id, func.attr
    if isinstance(func, ast.Name):
        return methods.get(func.id)
    return None


def _taking_helpers(
    function: _Def, stacks: set[str], methods: dict[str, tuple[str, str]]
) -> dict[str, str]:
    """The functions defined in the function that take an item off one of its lists (the
    name → the list): `pop_style(name)`, which pops the item of that name or raises."""
    out: dict[str, str] = {}
    for node in function.body:
        for inner in walk(node):
            if not isinstance(inner, _Def) or inner is function:
                continue
            lists = {
                found[0]
                for sub in walk(inner)
                if (found := _method_call(sub, methods)) is not None
                and found[0] in stacks
                and found[1] in _TAKES
            }
            if len(lists) == 1:
                out[inner.name] = lists.pop()
    return out


def _taken(
    statement: ast.Try | ast.TryStar,
    stacks: set[str],
    methods: dict[str, tuple[str, str]],
    helpers: dict[str, str],
) -> dict[str, str]:
    """The lists the `try` takes an item off → the call that does it, as written."""
    out: dict[str, str] = {}
    for part in statement.body:
        for node in walk(part):
            if not isinstance(node, ast.Call):
                continue
            found = _method_call(node, methods)
            if found is not None and found[0] in stacks and found[1] in _TAKES:
                out[found[0]] = _short(node)
            elif isinstance(node.func, ast.Name) and node.func.id in helpers:
                out[helpers[node.func.id]] = _short(node)
    return out


def _adds(function: _Def, stack: str, methods: dict[str, tuple[str, str]]) -> list[ast.Call]:
    """Every call that adds an item to the list, directly or through a bound method."""
    return sorted(
        (
            node
            for node in walk(function)
            if isinstance(node, ast.Call)
            and (found := _method_call(node, methods)) is not None
            and found[0] == stack
            and found[1] in _ADDS
        ),
        key=lambda n: n.lineno,
    )


def _loop_around(function: _Def, statement: ast.stmt) -> ast.For | None:
    """The innermost `for` loop of the function itself that holds the statement."""
    around: ast.For | None = None
    for node in walk(function):
        if not isinstance(node, ast.For) or not _inside(statement, node):
            continue
        if around is None or _inside(node, around):
            around = node
    return around


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    start, end = outer.lineno, outer.end_lineno or outer.lineno  # type: ignore[attr-defined]
    line = node.lineno  # type: ignore[attr-defined]
    return node is not outer and start <= line <= end


def _short(node: ast.AST) -> str:
    return " ".join(ast.unparse(node).split())[:80]
