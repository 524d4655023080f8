"""Parameters the function binds again to a part of what it computed before the check.

`def parse_args(self, ctx, args): ... opts, args, order = parser.parse_args(args=args)`,
then `for param in params: value, args = param.handle_parse_result(ctx, opts, args)`, then
`if args and not ctx.allow_extra_args: fail(...)`: the check reads the arguments the parser
left over, not the list the caller handed in. "Pass an empty value for the argument `args`"
speaks of the wrong value: None fails in the parser (`[] + None`), and an empty list throws
away what was typed rather than avoiding the error. A parameter that is one of several
targets of an unpacking, or the variable of a loop, before the site (or in a loop that holds
the site) is no longer the caller's value at the check, and no way out is said of it. A
plain `x = f(x)` keeps the name's meaning (a conversion, a default filled in) and stays.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from errdex.ast_walk import walk, walk_scope
from errdex.explain.context import Facts

__all__ = ["unpacked_params"]

_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def unpacked_params(facts: Facts, line: int) -> frozenset[str]:
    """The site function's parameters bound again, before the test at `line` (the site's
    when 0), as a part of an unpacking or as a loop variable; empty when the function is
    not read. A test before the rebinding (`if tokens is None and ...:` above `_, tokens, _
    = coordinate(...)`) still reads the caller's value."""
    line = line or facts.stored.site.line
    return facts.once(f"unpacked_params:{line}", lambda: _unpacked(facts, line))


def _unpacked(facts: Facts, line: int) -> frozenset[str]:
    function = facts.site_function()
    if function is None:
        return frozenset()
    args = function.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    loops = [
        (n.lineno, n.end_lineno or n.lineno)
        for n in walk(function)
        if isinstance(n, _LOOPS) and n.lineno <= line <= (n.end_lineno or n.lineno)
    ]
    found = set()
    for name, at in _part_stores(function):
        if name in params and (at < line or any(start <= at <= end for start, end in loops)):
            found.add(name)
    return frozenset(found)


def _part_stores(function: ast.AST) -> Iterator[tuple[str, int]]:
    """(name, line) of each plain name bound as an element of a tuple or list target (of
    an assignment or a loop), or as a loop's variable; a nested function's own names are
    not the function's."""
    body = function.body if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) else []
    for node in walk_scope(body):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = [t for t in node.targets if isinstance(t, ast.Tuple | ast.List)]
        elif isinstance(node, ast.For | ast.AsyncFor):
            targets = [node.target]
        for target in targets:
            for inner in walk(target):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    yield inner.id, inner.lineno
