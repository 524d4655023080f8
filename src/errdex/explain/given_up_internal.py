"""No "Pass None" for an argument that only sets off a check of an application's own state.

A package that installs commands of its own (an application: a server, a command line) runs
its functions with the values its own code computes. `check_sinks(module, self_attn, s_aux)`
raises when `s_aux is not None and not getattr(self_attn, "has_sink", False)`: the model
applies attention sinks the layer would drop. "Pass None for the argument `s_aux` of
`check_sinks`" names a call no user makes, and passing None only makes the check's guard
skip it: the sinks are dropped all the same, and the output is wrong. Where the argument
is only what sets the check off (one part of the condition reads it, the others test other
state) in a function the package does not hand to users, that way out is left out; the
others on the page (settings, the message's advice, a public call that hands the user's
value on, `(it reaches ...)`) stay. A check of the argument's own value (`salt is not None
and not isinstance(salt, str)`) keeps it: there None is the caller's value left out. So do a
function the package hands to users, a library's (no command of its own: its users call it)
and arguments a request's handlers hand down from what the client sent
(`request_handlers`).
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.input_nodes import conjuncts
from errdex.explain.page import Solution
from errdex.explain.state_gated import (
    own_argument,
    request_handlers,
    top_exported,
    users_call,
    users_class,
)

# How the input rules word passing None for an argument.
_NONE_FOR = "Pass None for the argument "
# The argument a way out names, as the input rules name it.
_ARGUMENT = re.compile(r"\bthe argument `([A-Za-z_]\w*)`")


def without_internal_give_ups(kept: list[Solution], facts: Facts) -> list[Solution]:
    """`kept` without "Pass None" for an argument that only sets the check off, when the
    package is an application and does not hand the function to users (above)."""
    if not facts.scripts or not any(_gives_up(s, facts) for s in kept):
        return kept
    if _handed_out(facts) or request_handlers(facts):
        return kept
    return [s for s in kept if not _gives_up(s, facts)]


def _handed_out(facts: Facts) -> bool:
    """Whether the package hands users the function or its class (`users_call`,
    `users_class`, its top `__all__`)."""
    return users_call(facts) or users_class(facts) or top_exported(facts)


def _gives_up(solution: Solution, facts: Facts) -> bool:
    if not own_argument(solution, facts) or not solution.text.startswith(_NONE_FOR):
        return False
    return _trigger_only(solution)


def _trigger_only(solution: Solution) -> bool:
    """Whether the argument is only what sets the check off: one part of the condition
    reads it (`s_aux is not None`) and the others read something else (`not
    getattr(self_attn, "has_sink", False)`). The check is then of the state the argument
    meets, not of its value; giving it up leaves that state as it is. A check of the
    argument's own value (`cache_salt is not None and not isinstance(cache_salt, str)`) is
    of what a caller handed down, whose way out is a value it takes."""
    named = _ARGUMENT.search(solution.text)
    found = conjuncts(solution.condition) if solution.condition else None
    if named is None or found is None:
        return False
    reading = [p for p in found[1] if named[1] in _names(p)]
    return len(reading) == 1 and len(found[1]) > 1


def _names(node: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
