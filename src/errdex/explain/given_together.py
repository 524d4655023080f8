"""Ways out of a check that refuses two arguments of a public call given together.

httpx's `Timeout.__init__` asserts `connect is UNSET` under `if isinstance(timeout,
Timeout):`: a `Timeout` passed as `timeout` carries every timeout already, so `connect`
may not be given beside it. Neither condition alone is a mistake; the two together are.
When the check's conditions read two parameters of the function the user calls, and one
of them only asks whether the argument was given (`x is not UNSET`, `x is not None`, a bare
`x` whose default is None or False, each against the parameter's own default), the way out
is to pass one or the other: leave that argument out of the call (the example fix drops it
and keeps the other), or give the other a value for which its condition is false.
"""

from __future__ import annotations

import ast
import builtins

from errdex.explain.context import Facts
from errdex.explain.input_nodes import free_names, part_views
from errdex.explain.inputs import public_name
from errdex.explain.page import Change, ConditionView, Solution
from errdex.explain.plain import code, plain_condition
from errdex.explain.private_names import private_member
from errdex.explain.user_call import required_arguments, user_call
from errdex.extract.conditions import negate
from errdex.facts import Condition, ConditionKind

# defaults a bare truth test (`if proxy and mounts:`) reads as "left out"
_FALSE_DEFAULTS = frozenset({"None", "False"})


def given_together_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Pass `connect` or a `timeout` that is a `Timeout`, not both" when the open
    conditions are on two arguments of the user's call, one of them tested only for being
    given; else None."""
    site = facts.stored.site
    if not public_name(site.function) or site.function.count(".") > 1:
        return None
    call = user_call(facts)
    if call is None:
        return None
    read = facts.read
    checks = [
        part
        for c in conditions
        if c.kind is not ConditionKind.EARLY_EXIT
        for part in part_views(c) or [c]
    ]
    given: list[tuple[ConditionView, str]] = []
    other: list[tuple[ConditionView, str]] = []
    for condition in checks:
        name = _given_test(condition.text, read.defaults, read.params)
        if name is not None:
            given.append((condition, name))
            continue
        param = _one_parameter(condition.text, read.params)
        if param is None:
            return None  # a name the user's call does not decide: not theirs alone
        other.append((condition, param))
    if not given or len(checks) != 2:
        return None  # a third condition: the two arguments together are not all it asks
    left_out = given[-1]  # the one the check itself tests (innermost)
    partner, kept = [*given[:-1], *other][0]
    if kept == left_out[1] or private_member(kept) or private_member(left_out[1]):
        return None  # a value of one argument, or the package's own private keyword
    # `path is not None` with `domain is None`: the other one left out is the mistake, not
    # both given; `passive & SQL_OK`: a mode of the other, not it given
    if (partner, kept) not in given and not _given_shape(partner.text):
        return None
    return _solution(call, left_out[1], partner, kept, facts)


def _solution(
    call: tuple[str, str | None],
    dropped: str,
    partner: ConditionView,
    kept: str,
    facts: Facts,
) -> Solution | None:
    target, method = call
    callee = f"{target}.{method}" if method else target
    holds = _words(partner.text, partner)
    opposite = _opposite(partner)
    default = facts.read.defaults.get(dropped)
    keeps = f" (it then keeps its default, {code(default)})" if default else ""
    text = (
        f"Pass {code(callee)} either {code(dropped)} or {code(kept)}, not both: when "
        f"{holds}, the check refuses {code(dropped)} given beside it. Leave {code(dropped)} "
        f"out of the call{keeps}, or give {code(kept)} a value for which {opposite}."
    )
    read = facts.read
    if dropped in read.positional or kept in read.positional:
        change = None  # passed by position: the fix's keywords would not name it
    else:
        required = required_arguments(facts, dropped) or ()
        if not any(r.startswith(f"{kept}=") for r in required):
            required = (f"{kept}={kept.upper()}", *required)
        change = Change(
            form="call",
            target=target,
            method=method,
            argument=dropped,
            before=dropped.upper(),
            after=None,
            required=required,
        )
    return Solution(text=text, condition=partner.text, kind="input", change=change)


def _opposite(condition: ConditionView) -> str:
    try:
        text = ast.unparse(negate(ast.parse(condition.text, mode="eval").body))
    except (SyntaxError, ValueError, RecursionError):
        text = f"not ({condition.text})"
    return _words(text, condition)


def _words(text: str, condition: ConditionView) -> str:
    """A condition's text (as it holds) in words."""
    held = Condition(test=text, kind=condition.kind, holds=True, line=condition.line, text=text)
    return plain_condition(held) or code(text)


def _given_test(text: str, defaults: dict[str, str], params: tuple[str, ...]) -> str | None:
    """The parameter `x` of `x is not D`, `x != D` or a bare `x` (default None or False),
    where D is the parameter's own default: a test of whether the call gave it."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if isinstance(node, ast.Name):
        name = node.id
        return name if name in params and defaults.get(name) in _FALSE_DEFAULTS else None
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not isinstance(node.ops[0], ast.IsNot | ast.NotEq):
        return None
    left, right = node.left, node.comparators[0]
    if not isinstance(left, ast.Name) or left.id not in params:
        return None
    default = defaults.get(left.id)
    return left.id if default is not None and ast.unparse(right) == default else None


def _given_shape(text: str) -> bool:
    """`isinstance(x, T)`, `x is not None` or a bare `x`: the other argument given (as a
    kind of value), whatever its default."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "isinstance"
    return (
        isinstance(node, ast.Compare)
        and isinstance(node.ops[0], ast.IsNot)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    )


def _one_parameter(text: str, params: tuple[str, ...]) -> str | None:
    """The one parameter a condition reads, besides constants, builtins and class names."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    read = set()
    for name in free_names(node):
        root = name.split(".")[0]
        if root in params:
            read.add(root)
        elif not (root[:1].isupper() or root in _BUILTIN_NAMES):
            return None
    return read.pop() if len(read) == 1 else None


_BUILTIN_NAMES = frozenset(dir(builtins))
