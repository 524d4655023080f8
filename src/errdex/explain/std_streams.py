"""A check of what a helper found in `sys.stdout` (or `stdin`, `stderr`): the stream the user's
process holds when the call runs.

click's `get_binary_stdout` does `writer = _find_binary_writer(sys.stdout)` and raises
when it is None. No argument decides that: `sys.stdout` is whatever the process holds at
that moment, and the user's code, a test runner capturing output, a notebook or
`contextlib.redirect_stdout` may have put another object there. So when every name the
raise's own test reads is a local assigned a call that is handed one of the standard
streams (not a method of the stream itself: `sys.stdin.readline()` reads the input, it does
not judge the stream), the page says which stream it is and that the process's own one
(`sys.__stdout__`) passes where the replacement did not.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.facts import BRANCH_KINDS, ConditionKind, SiteKind

__all__ = ["stream_solution"]

_STREAMS = frozenset({"sys.stdin", "sys.stdout", "sys.stderr"})


def stream_solution(facts: Facts) -> Solution | None:
    """ "`sys.stdout` is not a stream `_find_binary_writer` can use here ...", or None."""
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT):
        return None
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None
    checks = [c for c in facts.held if c.kind in BRANCH_KINDS]
    if not checks or not any("sys.std" in b.value for b in facts.bindings):
        return None  # cheap: no page without such a local parses anything here
    try:
        read = names_read(ast.parse(checks[-1].text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None
    locals_ = {b.name: b for b in facts.bindings if b.origin == "local"}
    found = [_handed(locals_[n].value) if n in locals_ else None for n in sorted(read)]
    handed = [f for f in found if f is not None]
    if not handed or len(handed) < len(found):
        return None
    if len({s for s, _ in handed}) != 1:
        return None
    stream, helper = handed[0]
    name = min(read)
    binding = locals_[name]
    at = f" (line {binding.line})" if binding.line is not None else ""
    own = stream.replace("sys.", "sys.__") + "__"
    changers = ["Your code", "a test runner capturing it", "a notebook"]
    if stream != "sys.stdin":  # `contextlib` redirects the output streams only
        changers.append(f"`contextlib.redirect_{stream[4:]}`")
    return Solution(
        text=(
            f"Call it with {code(stream)} set to the process's own stream: the check at line "
            f"{checks[-1].line} tests {code(name)}, which is {code(binding.value)}{at}, and "
            f"{code(stream)} is whatever the process holds when it runs. "
            f"{listed(changers, 'or')} may have put an object there that "
            f"{code(helper)} cannot use: restore the original "
            f"(`{stream} = {own}`) before the call, or replace it with one {code(helper)} "
            "accepts."
        ),
        condition=checks[-1].text,
        kind="input",
    )


def _handed(value: str) -> tuple[str, str] | None:
    """(the standard stream, the function) of a call handed one: `_find_binary_writer(
    sys.stdout)`; None for anything else (a method of the stream itself included)."""
    try:
        node = ast.parse(value, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(node, ast.Call):
        return None
    given = [ast.unparse(a) for a in (*node.args, *(k.value for k in node.keywords))]
    streams = [g for g in given if g in _STREAMS]
    if len(streams) != 1 or len(given) != 1:
        return None  # other arguments may be what the helper refuses
    return streams[0], ast.unparse(node.func)
