"""A way out of a check on a state that the raising method itself puts its object in.

httpx's `Response.aiter_raw` raises `StreamConsumed` when `self.is_stream_consumed` is true,
and sets `self.is_stream_consumed = True` itself once past the check: the first call uses
the object up, and a second call (or one of `aiter_bytes`, `aiter_text`, `aiter_lines`,
`aread`, which go through it) is refused. No argument decides that, and no order of other
calls helps (`call_order` leaves such a single-use method alone): the way out is to call
it once on each object. Only when no other method (the constructor included; its sync or
async twin aside) puts the object in that state: then a fresh object may be refused too,
or another call is the cause. When a public method that goes through it keeps what it produced
(`aread` assigns `self._content`) and a public property gives that back (`content` returns
`self._content`), that method called once, then the property, is how to use it again.
Only for a class the package hands to users (`state_gated.users_call`), and a check on
that state alone (with an argument compared too, it is that argument that is refused).
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.call_order import (
    Methods,
    is_own,
    may_assign,
    own_calls,
    state_checks,
    state_test,
)
from errdex.explain.context import CONTEXT_KINDS, Facts
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code, listed
from errdex.explain.state_gated import users_call

_SHOWN = 4


def single_use_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Call `aiter_raw` only once on each `Response` object ..." for a public method of a
    public class that refuses a state (`self.X` true, or equal to a named value) it assigns
    itself after the check; else None."""
    site = facts.stored.site
    if not users_call(facts):
        return None  # a class deep in the package: its own calls, no user's
    tested = [c for c in conditions if c.kind not in CONTEXT_KINDS]
    checks = state_checks(conditions, facts, state_test, may_assign)
    for target, member, condition, (attr, value), methods in checks:
        if any(c is not condition for c in tested):
            continue  # refused also for what it is given (`top_k != self.top_k`): not the use
        method = methods.get(member)
        line = _sets_after(method, attr, value, site.line) if method is not None else None
        if line is None:
            continue
        if any(
            name not in (member, *_twins(member)) and _sets_after(m, attr, value, 0) is not None
            for name, m in methods.items()
        ):
            continue  # made so by the constructor or another method: not by a first use
        users = _users(methods, member)
        return _solution(target, member, users, (attr, value, line), condition, methods)
    return None


def _twins(member: str) -> tuple[str, ...]:
    """The sync and async twins of a method's name (`iter_raw`, `aiter_raw`): the same use
    for the other kind of stream."""
    return (member[1:],) if member.startswith("a") else ("a" + member,)


def _sets_after(method: ast.AST, attr: str, value: str, line: int) -> int | None:
    """The line where the method assigns `self.attr = value` after the line of the check."""
    for node in walk(method):
        if (
            isinstance(node, ast.Assign)
            and node.lineno > line
            and any(is_own(t) and t.attr == attr for t in node.targets)
            and ast.unparse(node.value) == value
        ):
            return node.lineno
    return None


def _users(methods: Methods, member: str) -> list[str]:
    """The public methods (of the same kind, sync or async) that call `member` through
    `self`, directly or through each other."""
    is_async = isinstance(methods[member], ast.AsyncFunctionDef)
    calls = {name: own_calls(m) for name, m in methods.items()}
    reach = {member}
    grew = True
    while grew:
        grew = False
        for name, called in calls.items():
            if name not in reach and called & reach:
                reach.add(name)
                grew = True
    return [
        name
        for name, m in methods.items()
        if name in reach
        and name != member
        and not name.startswith("_")
        and isinstance(m, ast.AsyncFunctionDef) == is_async
        and not _is_property(m)
    ]


def _is_property(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(d, ast.Name) and d.id in ("property", "cached_property")
        for d in method.decorator_list
    )


def _kept(methods: Methods, users: list[str]) -> tuple[str, str] | None:
    """(the method, the property): a user method that assigns `self.A` and a public
    property whose last statement returns `self.A`."""
    returned: dict[str, str] = {}
    for name, m in methods.items():
        if name.startswith("_") or not _is_property(m) or not m.body:
            continue
        last = m.body[-1]
        if isinstance(last, ast.Return) and last.value is not None and is_own(last.value):
            returned.setdefault(last.value.attr, name)
    for name in users:
        for node in walk(methods[name]):
            if not isinstance(node, ast.Assign):
                continue
            for t in node.targets:
                if is_own(t) and t.attr in returned:
                    return name, returned[t.attr]
    return None


def _solution(
    target: str,
    member: str,
    users: list[str],
    state: tuple[str, str, int],
    condition: ConditionView,
    methods: Methods,
) -> Solution:
    owner = target.rpartition(".")[2]
    attr, value, line = state
    kept = _kept(methods, users)
    if kept is not None:  # said below: what keeps the result is called once, then reused
        users = [u for u in users if u != kept[0]]
    text = f"Call {code(member)} at most once on each {code(owner)} object"
    if users:
        shown = [code(f"{u}()") for u in users[:_SHOWN]]
        more = " or the like" if len(users) > _SHOWN else ""
        text += f", counting the calls of {listed(shown, 'or')}{more}, which go through it"
    text += (
        f": the first sets {code('self.' + attr)} to {code(value)} (line {line}), and "
        f"{code(member)} refuses an object in that state."
    )
    if kept is not None:
        keeper, prop = kept
        instance = instance_name(owner)
        awaited = "await " if isinstance(methods[keeper], ast.AsyncFunctionDef) else ""
        text += (
            f" To use its result more than once, call {code(f'{awaited}{instance}.{keeper}()')} "
            f"first and read {code(f'{instance}.{prop}')} as often as needed."
        )
    else:
        text += f" For another pass, make a new {code(target)}."
    return Solution(text=text, condition=condition.text, kind="input")
