"""What an input holds when a call leaves it out: the default of a parameter, as written.

A page may say "or leave it out" only where the default makes the check's condition false
(`is_topk_gather=True` by default fails `assert ... or not self.is_topk_gather` all the
same). A default says what the input holds only while nothing rebinds the parameter first
(`if timeout is None: timeout = DEFAULT`): a parameter the function assigns is left out.
"""

from __future__ import annotations

import ast

from errdex.extract.shapes import OWN_OBJECT

Function = ast.FunctionDef | ast.AsyncFunctionDef
_MAX_DEFAULT = 80  # characters of a default's source kept; a longer one is no value to name


def parameter_defaults(func: Function, wanted: set[str] | None) -> dict[str, str]:
    """Each parameter of `func` (among `wanted`, every one when None) that has a default
    and that the body never rebinds → the default's source."""
    args = func.args
    ordered = [*args.posonlyargs, *args.args]
    pairs: list[tuple[ast.arg, ast.expr | None]] = [
        *zip(ordered[len(ordered) - len(args.defaults) :], args.defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    found = {
        arg.arg: ast.unparse(default)
        for arg, default in pairs
        if default is not None
        and arg.arg not in OWN_OBJECT
        and (wanted is None or arg.arg in wanted)
    }
    if not found:
        return {}
    for name in _rebound(func):
        found.pop(name, None)
    return {name: source for name, source in found.items() if len(source) <= _MAX_DEFAULT}


def _rebound(func: Function) -> set[str]:
    """The plain names the function's body assigns, deletes or binds (in its own scope and
    the functions nested in it, whose `nonlocal` may rebind a parameter)."""
    out: set[str] = set()
    for stmt in func.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                out.add(node.id)
    return out
