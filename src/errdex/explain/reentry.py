"""A way out of a `with` block entered on an object that was entered, used or closed before.

httpx's `Client.__enter__` raises when `self._state != ClientState.UNOPENED` ("Cannot open a
client instance more than once", "Cannot reopen a client instance, once it has been
closed"): `__init__` gives `self._state` that value, and `__enter__` itself moves it on
after the check, as `send()`, `close()` and `__exit__` do. The order of the user's own calls
decides it, and no order helps a second block on the same object: each object is entered
once, before any other use, and another block takes a new object. Offered when the check
in `__enter__` (or `__aenter__`) refuses every value but the one the constructor assigns
(`!=`), or one value (`==`, `is`, a bare flag) that `__enter__` itself assigns after it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.explain.call_order import (
    BLOCK_ENDS,
    BLOCK_STARTS,
    Methods,
    compared_state,
    own_assignments,
    reached_calls,
    same_kind,
    state_checks,
    user_called,
)
from errdex.explain.context import Facts, class_in_file, may_name
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import ConditionView, ExampleFix, Solution
from errdex.explain.plain import code, listed
from errdex.explain.state_gated import users_call


def reentry_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Use each `Client` object in one `with` block ..." for a check in the `__enter__` of
    a public class that refuses the states its own entry and other methods move the object
    into; else None."""
    if facts.stored.site.function.rpartition(".")[2] not in BLOCK_STARTS or not users_call(facts):
        return None
    checks = state_checks(
        conditions,
        facts,
        compared_state,
        lambda text, state: may_name(text, state[0]),
        frozenset(BLOCK_STARTS),
    )
    for target, member, condition, (attr, value, only), methods in checks:
        initial = _initial(facts, target.rpartition(".")[2], attr)
        if only and (not initial or value not in initial):
            continue  # refuses all but a value the constructor does not give
        if not only and value in initial:
            continue  # refuses what a new object starts with: no object passes
        refused = _Refused(value, tuple(initial), only)
        entry = methods.get(member)
        line = _sets_after(entry, attr, refused, facts.stored.site.line) if entry else None
        if line is None:
            continue  # entering does not use the object up: an order of calls, not a reuse
        others = same_kind(methods, member, _setters(methods, attr, refused, member))
        state = (attr, initial[0] if only else None, line)
        return _solution(target, member, state, others, _through(methods, others), condition)
    return None


@dataclass(frozen=True)
class _Refused:
    """The values a check refuses: all but the constructor's (`only`), or the one value."""

    value: str
    initial: tuple[str, ...]
    only: bool

    def __call__(self, assigned: str) -> bool:
        return assigned not in self.initial if self.only else assigned == self.value


def _assignments(method: ast.AST, attr: str) -> list[tuple[int, str]]:
    """(line, value) of each `self.attr = value` (or annotated) in a method."""
    return [(node.lineno, ast.unparse(value)) for node, value in own_assignments(method, attr)]


def _assigned(method: ast.AST | None, attr: str) -> list[str]:
    return [value for _, value in _assignments(method, attr)] if method is not None else []


def _initial(facts: Facts, owner: str, attr: str, depth: int = 3) -> list[str]:
    """The values the constructor gives `self.attr`: the class's own `__init__`, else that
    of a base class of the same file it goes on to (httpx's `BaseClient`)."""
    found = class_in_file(facts, owner)
    if found is None or depth == 0:
        return []
    for node in found.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            own = _assigned(node, attr)
            if own:
                return own
    for base in found.bases:
        if isinstance(base, ast.Name) and base.id != owner:
            inherited = _initial(facts, base.id, attr, depth - 1)
            if inherited:
                return inherited
    return []


def _sets_after(method: ast.AST, attr: str, refused: _Refused, line: int) -> int | None:
    """The line where the method assigns a refused value after the check's line."""
    for at, value in _assignments(method, attr):
        if at > line and refused(value):
            return at
    return None


def _setters(methods: Methods, attr: str, refused: _Refused, member: str) -> list[str]:
    """The methods the user calls that assign a refused value, the entry itself left out."""
    return [
        name
        for name, m in methods.items()
        if name not in (member, "__init__")
        and user_called(name)
        and any(refused(value) for value in _assigned(m, attr))
    ]


def _through(methods: Methods, setters: list[str]) -> bool:
    """Whether a public method reaches a setter through its own calls on `self`."""
    reach = reached_calls(methods)
    setting = set(setters)
    return any(
        not name.startswith("_") and name not in setting and reach[name] & setting
        for name in methods
    )


def _solution(
    target: str,
    member: str,
    state: tuple[str, str | None, int],
    others: list[str],
    through: bool,
    condition: ConditionView,
) -> Solution:
    owner = target.rpartition(".")[2]
    block = BLOCK_STARTS[member]
    attr, initial, line = state
    refuses = (
        f"refuses an object whose {code('self.' + attr)} is no longer {code(initial)} (the "
        "value its constructor gives it)"
        if initial is not None
        else f"refuses an object whose {code('self.' + attr)} was set"
    )
    named = [code(f"{m}()") for m in others if m not in BLOCK_ENDS]
    if any(m in BLOCK_ENDS for m in others):
        named.append(f"the end of {'an' if block[0] == 'a' else 'a'} {code(block)} block")
    also = ""
    if named:
        also = f", as {listed(named)} {'do' if len(named) > 1 else 'does'}"
        if through:
            also += " (and the methods that call them)"
    text = (
        f"Use each {code(owner)} object in one {code(block)} block, entered before any other "
        f"call on it: {code(member)} {refuses}, and entering the block changes it (line "
        f"{line}){also}. For another block, make a new {code(target)}."
    )
    return Solution(text=text, condition=condition.text, kind="input", fix=_fix(target, block))


def _fix(target: str, block: str) -> ExampleFix:
    """One object entered twice → a new object for each block."""
    module, _, owner = target.rpartition(".")
    instance = instance_name(owner)
    head = f"from {module} import {owner}\n\n" if module else ""
    body = f"{block} {instance}:\n    ...\n"
    made = f"{block} {owner}() as {instance}:\n    ...\n"
    return ExampleFix(
        before=f"{head}{instance} = {owner}()\n{body}{body}".rstrip("\n"),
        after=f"{head}{made}{made}".rstrip("\n"),
        note=(
            f"`{instance}` is your {code(owner)} object ({code(target)}). Keep "
            f"{code(owner + '(...)')}'s own arguments as they are."
        ),
    )
