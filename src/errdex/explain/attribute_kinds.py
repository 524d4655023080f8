"""An argument tested for an attribute whose annotation names kinds without it: pass one of
those kinds.

click's `make_input_stream(input: Optional[Union[str, bytes, IO[Any]]], charset)` takes an
object with `read` as a stream (`if hasattr(input, "read"):`) and raises "Could not find
binary reader for input stream." when `_find_binary_reader` finds none in it; a `str` or
`bytes` skips that branch, and the function makes a stream of it itself. The way out is
one of the kinds the annotation names that has no such attribute (a builtin type without
it: `str` has no `read`), passed where the user passes it (the public call that hands the
argument on as it is, `CliRunner.isolation(input=...)`). Offered only where the raise sits
in the branch of that one test on the argument, nothing assigns the argument before it, and nothing
after the branch raises (the other kinds pass).
"""

from __future__ import annotations

import ast
import builtins

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_solution import entry_of
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.explain.refused_ways import if_at
from errdex.explain.user_data import callable_by_user
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store.base import Store, StoredSite

__all__ = ["attribute_kinds_solution"]

# Builtin kinds an annotation may name, whose attributes Python fixes.
_KINDS = ("str", "bytes", "bytearray", "int", "float", "bool", "list", "tuple", "dict")
_Def = ast.FunctionDef | ast.AsyncFunctionDef


def attribute_kinds_solution(store: Store, chosen: StoredSite, facts: Facts) -> Solution | None:
    """ "Pass `input` to `CliRunner.isolation` as a `str` or `bytes` ..."; else None."""
    site = chosen.site
    if site.kind != SiteKind.RAISE or not callable_by_user(facts):
        return None
    tested = [
        (c, found)
        for c in facts.conditions
        if c.kind is ConditionKind.IF and c.holds and (found := _attribute_test(c.test))
    ]
    if len(tested) != 1:
        return None
    condition, (param, attribute) = tested[0]
    line = condition.line
    function = facts.site_function()
    if function is None or _bound_before(function, param, line):
        return None
    kinds = _kinds_without(function, param, attribute)
    if not kinds:
        return None
    branch = if_at(facts, line)
    if branch is None or not _passes_after(function, branch):
        return None
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    callee = site.function.removesuffix(".__init__")
    entry = entry_of(store, chosen, facts, params, param)
    where = f"to {code(callee)}"
    if entry is not None and not entry.how and not entry.kinds:
        where = f"to {entry.named()} (it reaches {code(callee)} as {code(param)})"
        param = entry.argument
    said = f" (“{site.message.text}”)" if site.message is not None else ""
    text = (
        f"Pass {code(param)} {where} as a {listed([code(k) for k in kinds], 'or')}, "
        f"which has no {code(attribute)}: {code(callee)} sends only an object with "
        f"{code(attribute)} into the branch at line {line} that raises{said}, and handles "
        "the other kinds its annotation names after it."
    )
    return Solution(text=text, condition=condition.text, kind="input")


def _attribute_test(test: str) -> tuple[str, str] | None:
    """(`input`, `read`) of `hasattr(input, "read")`."""
    node = parse_expression(test)
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "hasattr"
        and len(node.args) == 2
        and isinstance(node.args[0], ast.Name)
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return None
    return node.args[0].id, node.args[1].value


def _kinds_without(function: _Def, param: str, attribute: str) -> list[str]:
    """The builtin kinds the parameter's annotation names that lack the attribute."""
    args = function.args
    arg = next(
        (a for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg == param), None
    )
    if arg is None or arg.annotation is None:
        return []
    named = [
        n.id if isinstance(n, ast.Name) else n.attr
        for n in walk(arg.annotation)
        if isinstance(n, ast.Name | ast.Attribute)
    ]
    kinds = [k for k in dict.fromkeys(named) if k in _KINDS]
    return [k for k in kinds if not hasattr(getattr(builtins, k), attribute)]


def _bound_before(function: _Def, param: str, line: int) -> bool:
    """Whether the function assigns the parameter before the test's line: then the test
    reads what it made, not what was passed."""
    return any(
        isinstance(n, ast.Name)
        and n.id == param
        and isinstance(n.ctx, ast.Store)
        and n.lineno < line
        for n in walk(function)
    )


def _passes_after(function: _Def, branch: ast.If) -> bool:
    """Whether the function raises nowhere outside the branch's own body: in its `else`,
    and in the statements after it, the other kinds pass."""
    rest = [*branch.orelse]
    for node in walk(function):
        body = getattr(node, "body", None)
        if isinstance(body, list) and branch in body:
            rest += body[body.index(branch) + 1 :]
    return not any(isinstance(n, ast.Raise) for s in rest for n in walk(s))
