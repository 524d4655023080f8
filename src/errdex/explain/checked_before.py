"""A check every caller makes first: the site's condition cannot hold when it is reached.

When each function of the package that calls the site's private function asserts the opposite of
one of the site's conditions before the call, or leaves when it holds (`if x is None:
raise ...`), the site is never reached with it true: `FlashAttentionImpl.forward` asserts
`self.vllm_flash_attn_version is not None` at line 1217 and only then calls
`_forward_with_dcp`, whose own assert tests the same. Nothing is to be done there, and no
way out is offered; the caller's own check is the error a user would meet. Conditions on
the object's own state (`self.x`) compare across two methods of one object; a test of one
of the callee's parameters compares once renamed to the caller's own argument that the
call hands it as it is (`_logical_to_physical_qsa_slots`'s `block_size <= 0` is the
`storage_block_size <= 0` its only caller raises on first, in an `if ... or ...: raise`).
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator

from errdex.ast_walk import walk
from errdex.explain.call_binding import positional_index
from errdex.explain.context import Facts, function_at, function_span, lines_of
from errdex.explain.deferred_calls import name_lines
from errdex.explain.entry_input import call_values, passed_on
from errdex.explain.page import Caller
from errdex.explain.plain import code
from errdex.explain.private_names import private_member
from errdex.explain.unreached import never_failing
from errdex.extract.conditions import negate
from errdex.extract.module import module_name
from errdex.extract.shapes import and_parts
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store import Store

__all__ = ["checked_by_callers", "checked_sentence"]

_TESTED = (ConditionKind.ASSERT, ConditionKind.IF, ConditionKind.ELIF)


def checked_by_callers(store: Store, facts: Facts) -> list[tuple[Caller, str, int]]:
    """Each direct caller with the check it makes first (as written) and its line, when
    every one makes one that rules out a condition of the site; else empty."""
    stored, callers = facts.stored, facts.callers
    site = stored.site
    name = site.function.rpartition(".")[2]
    # a private function: no user calls it without those callers (a public one they may)
    if site.kind not in (SiteKind.ASSERT, SiteKind.RAISE) or not private_member(name):
        return []
    direct = [c for c in callers if c.depth == 1]
    if not direct or not all(c.guard_known for c in direct):
        return []
    tested = [c.text for c in site.conditions if c.kind in _TESTED]
    held = {text for c in tested if (text := _own_state(c))}
    read = stored.reading.params if stored.reading is not None else ()
    params = [p for p in read if p not in ("self", "cls")]
    on_param = [one for c in tested if (one := _on_param(c, params))]
    if on_param:
        kept = _never_rebound(facts)
        on_param = [one for one in on_param if one[0] in kept]
    if not held and not on_param:
        return []
    found: list[tuple[Caller, str, int]] = []
    for caller in direct:
        text = store.file_text(stored.version_id, caller.file)
        lines = lines_of(text) if text is not None else ()
        if not 0 < caller.line <= len(lines):
            return []
        if _handing_on(caller, name, lines[caller.line - 1], callers):
            continue  # reached as the method is: by the calls the other callers make
        short = caller.function.rpartition(".")[2]
        span = function_span(text, short, caller.line)
        if span is None or not _LEAVES.search("\n".join(lines[span[0] : caller.line - 1])):
            return []  # nothing before the call can check first: the caller is not parsed
        # the object's state compares on the same object only: a call through `self`
        mine = held if f"self.{name}(" in lines[caller.line - 1] else set()
        function = function_at(text, short, caller.line)
        if function is not None and on_param:
            # a test of a parameter, as the caller names the value it hands on as it is
            # (`block_size <= 0` is the caller's `storage_block_size <= 0`)
            mine = mine | _passed_tests(store, facts, caller, function, on_param)
        check = None
        if function is not None and mine:
            check = _first_check(function, caller.line, mine, name)
        if check is None:
            return []
        found.append((caller, *check))
    return found


def _never_rebound(facts: Facts) -> set[str]:
    """The site function's parameters it does not store to before the site. One rebound
    before it (`n = n - 1`, `n = n or default`, `n -= 1` under a branch), or in a loop
    that holds the site (a later pass reaches it with the new value), is, at the test, no
    longer what the caller handed on, and the caller's check of its own argument says
    nothing of it; a store after the site (`x = x.unfold(...)` past the assert) is.
    Empty when the function is not read: whether it rebinds is not known."""
    function = facts.site_function()
    if function is None:
        return set()
    line = facts.stored.site.line
    loops = [
        (n.lineno, n.end_lineno or n.lineno)
        for n in walk(function)
        if isinstance(n, ast.For | ast.AsyncFor | ast.While)
        and n.lineno <= line <= (n.end_lineno or n.lineno)
    ]
    args = function.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    for name, at in _stores(function):
        if at < line or any(start <= at <= end for start, end in loops):
            params.discard(name)
    return params


def _stores(function: ast.FunctionDef) -> Iterator[tuple[str, int]]:
    """(name, line) of each binding of a plain name in the function: assignment, loop,
    `with` and `:=` targets, `del`, `except ... as`, `case` patterns, imports, nested
    definitions."""
    for node in walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            yield node.id, node.lineno
        elif (isinstance(node, ast.ExceptHandler) and node.name) or (
            isinstance(node, ast.MatchAs | ast.MatchStar) and node.name
        ):
            yield node.name, node.lineno
        elif isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest, node.lineno
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                yield (alias.asname or alias.name).split(".")[0], node.lineno
        elif node is not function and isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        ):
            yield node.name, node.lineno


def _on_param(text: str, params: list[str]) -> tuple[str, ast.expr] | None:
    """(the parameter, the condition parsed) when the condition reads one parameter of the
    function and nothing else but constants (`block_size <= 0`)."""
    node = parse_expression(text)
    if node is None:
        return None
    names = {n.id for n in walk(node) if isinstance(n, ast.Name)}
    if len(names) != 1 or not names <= set(params):
        return None
    return names.pop(), node


def _passed_tests(
    store: Store,
    facts: Facts,
    caller: Caller,
    function: ast.FunctionDef,
    on_param: list[tuple[str, ast.expr]],
) -> set[str]:
    """The conditions on a parameter, as written in the caller (`function`, already read):
    its own argument, which it hands the function as it is, in the parameter's place."""
    stored = facts.stored
    callee = f"{stored.module}.{stored.site.function}"
    site_function = facts.site_function()
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None] = {
        (caller.file, caller.function, caller.line): function
    }
    tests: set[str] = set()
    for param, node in on_param:
        # by keyword only where the site's own function is not read
        position = positional_index(site_function, param) if site_function else -1
        read = call_values(
            store, stored, caller, callee, (param, position), _CATCHES_NOTHING, parsed
        )
        argument = passed_on(*read) if read is not None else None
        if argument is None:
            continue
        renamed = _Renamed(param, argument).visit(copy.deepcopy(node))
        tests.add(ast.unparse(renamed))
    return tests


# no clause catches the error here: the caller's check comes before the call, in or out
# of a `try`
_CATCHES_NOTHING: frozenset[str] = frozenset()
# a word of the statements `_first_check` takes (an `assert`, an `if` that leaves)
_LEAVES = re.compile(r"\b(?:assert|raise|return)\b")


class _Renamed(ast.NodeTransformer):
    """A condition with one name swapped for another, made on a deep copy of the tree:
    `parse_expression` keeps the trees it parses, which other rules read again."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(id=self.new, ctx=node.ctx) if node.id == self.old else node


def checked_sentence(found: list[tuple[Caller, str, int]], project: str) -> str:
    places = "; ".join(
        f"{code(c.function)} checks {code(check)} first ({c.file}:{line})"
        for c, check, line in found[:3]
    )
    more = f", and {len(found) - 3} more" if len(found) > 3 else ""
    callee = code(found[0][0].calls.rpartition(".")[2]) if found[0][0].calls else "it"
    return (
        f"Every caller in {project} checks the opposite before calling it: {places}{more}. "
        + never_failing(callee, ", or the caller's own check fails first")
    )


def _handing_on(caller: Caller, name: str, line: str, callers: list[Caller]) -> bool:
    """Whether the caller is a subclass's override of the method handing on to it
    (`super()._validate(...)` in its `_validate`) that no call of its own reaches: `self`
    calls of the method dispatch to it, the calls the method's other callers make."""
    if caller.function.rpartition(".")[2] != name or f"super().{name}(" not in line:
        return False
    own = f"{module_name(caller.file)[0]}.{caller.function}"
    return not any(c.calls == own for c in callers)


def _own_state(text: str) -> str | None:
    """The condition as Python writes it, when it reads only the object's own state."""
    node = parse_expression(text)
    if node is None:
        return None
    names = {n.id for n in walk(node) if isinstance(n, ast.Name)}
    return ast.unparse(node) if names == {"self"} else None


def _first_check(
    function: ast.FunctionDef, call_line: int, held: set[str], callee: str
) -> tuple[str, int] | None:
    """The caller's statement before the call, at the top of its body, that rules out
    one of `held`: an `assert` of its opposite, or an `if` of it that leaves. Before is
    ended before the call begins, line and column: an `if x <= 0: return _f(x)` that
    holds the call is no check made first (it makes the call with the very value)."""
    start = _call_start(function, callee, call_line)
    for stmt in function.body:
        end = (stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)
        if end > start:
            break
        if isinstance(stmt, ast.Assert) and _asserts_against(stmt.test, held):
            return "assert " + ast.unparse(stmt.test), stmt.lineno
        if isinstance(stmt, ast.If) and _leaves_on(stmt, held):
            return "if " + ast.unparse(stmt.test), stmt.lineno
    return None


def _call_start(function: ast.FunctionDef, callee: str, line: int) -> tuple[int, int]:
    """(line, column) where the caller's call of `callee` on `line` begins: the first of
    those spanning it (a call over several lines is recorded at one of them)."""
    starts = [
        (call.lineno, call.col_offset)
        for call, _ in name_lines(function, callee)
        if call.lineno <= line <= (call.end_lineno or call.lineno)
    ]
    return min(starts, default=(line, 0))


def _asserts_against(test: ast.expr, held: set[str]) -> bool:
    """Whether asserting `test` rules out one of `held`: its opposite, or that of a part
    of an `and` (`assert a > 0 and b > 0` rules out `a <= 0`)."""
    return any(ast.unparse(negate(t)) in held for t in [test, *and_parts(test)])


def _leaves_on(stmt: ast.If, held: set[str]) -> bool:
    """Whether the `if` leaves (raises or returns) when one of `held` is true."""
    body = stmt.body
    leaves = bool(body) and isinstance(body[-1], ast.Raise | ast.Return) and not stmt.orelse
    test = stmt.test
    # `if a or b: raise` leaves whenever `a` holds
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else []
    return leaves and any(ast.unparse(t) in held for t in [test, *parts])
