"""What a call gives each parameter of the function it calls, read from the call as written.

Many rules follow a value from a call into the callee (or back up from a parameter to the
calls that give it): they share one reading of keywords, positions and `*args`/`**kwargs`.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

__all__ = ["bound_arguments", "given_argument", "positional_index"]


def given_argument(call: ast.Call, param: str, position: int) -> ast.expr | None:
    """What `call` gives `param`, the callee's parameter at `position` among its positional
    ones (below 0: keyword only): its keyword's value, else the argument at that position when
    no `*args` comes at or before it (after one, the position no longer says which it is);
    None when the call gives it nothing that can be read."""
    found = next((k.value for k in call.keywords if k.arg == param), None)
    if found is not None or not 0 <= position < len(call.args):
        return found
    if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return None
    return call.args[position]


def positional_index(function: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> int:
    """Where a call gives `param` by position: its place among the function's positional
    parameters (`self` and `cls` left out, as a call through the object gives them), -1 for
    one a call can give by keyword only (after `*`), or never by name (`*args`, `**kwargs`)."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args) if a.arg not in ("self", "cls")]
    return positional.index(param) if param in positional else -1


def bound_arguments(call: ast.Call, positional: Sequence[str]) -> dict[str, ast.expr] | None:
    """The value `call` gives each parameter it names, by name: its arguments bound to
    `positional` in order, then its keywords; None when a `*args` or `**kwargs` hides what
    it gives, or when it gives more by position than there are parameters."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    if len(call.args) > len(positional):
        return None
    given = dict(zip(positional, call.args, strict=False))
    given.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    return given
