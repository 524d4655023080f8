"""What an input holds when a call leaves it out: the default of a parameter, as written.

A page may say "or leave it out" only where the default makes the check's condition false
(`is_topk_gather=True` by default fails `assert ... or not self.is_topk_gather` all the
same). A default says what the input holds only while nothing rebinds the parameter first
(`if timeout is None: timeout = DEFAULT`): a parameter the function assigns is left out.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.conditions import walk
from errdex.extract.shapes import OWN_OBJECT

Function = ast.FunctionDef | ast.AsyncFunctionDef
_MAX_DEFAULT = 80  # characters of a default's source kept; a longer one is no value to name


def parameter_defaults(
    func: Function,
    declared: dict[str, str] | None = None,
    rebound: Callable[[Function], set[str]] | None = None,
) -> dict[str, str]:
    """Each parameter of `func` with a default (among `declared`, the parameters →
    defaults to consider, `declared_defaults` when None) that the body never rebinds →
    the default's source. `rebound` gives the names a function's body binds
    (`rebound_names`, or a cache of it: a function read for each of its sites is walked
    once)."""
    found = {
        name: source
        for name, source in (declared_defaults(func) if declared is None else declared).items()
        if len(source) <= _MAX_DEFAULT
    }
    if not found:
        return {}
    bound = (rebound or rebound_names)(func)
    return {name: source for name, source in found.items() if name not in bound}


def declared_defaults(func: Function) -> dict[str, str]:
    """Each parameter with a default (after `self`/`cls`) → the default's source."""
    return {name: ast.unparse(default) for name, default in default_nodes(func)}


def default_nodes(func: Function) -> list[tuple[str, ast.expr]]:
    """Each parameter with a default (after `self`/`cls`) and its default, in order."""
    args = func.args
    ordered = [*args.posonlyargs, *args.args]
    pairs: list[tuple[ast.arg, ast.expr | None]] = [
        *zip(ordered[len(ordered) - len(args.defaults) :], args.defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    return [
        (arg.arg, default)
        for arg, default in pairs
        if default is not None and arg.arg not in OWN_OBJECT
    ]


def rebound_names(func: Function, walrus: bool = True) -> set[str]:
    """The plain names the function's statements bind (in its own scope and the functions
    nested in it, whose `nonlocal` may rebind a parameter): assignment and loop targets,
    `with ... as`, `except ... as`, `del`, imports, nested definitions, and `:=` in the
    tests of `if` and `while`. Only statements are visited, not every expression: a
    function read for its defaults may be thousands of lines long. `walrus`: whether the
    file's text holds a `:=` at all; without one no test binds a name, and the tests are
    not walked (most files, where they were half of this walk)."""
    out: set[str] = set()
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        # By the node's own type, not isinstance down a list: this walk visits every
        # statement of each function read for its defaults.
        kind = type(node)
        if kind in _LEAVES:
            continue
        targets: list[ast.expr] = []
        if kind is ast.Assign or kind is ast.Delete:
            targets = node.targets  # type: ignore[attr-defined]
        elif kind in _ONE_TARGET:
            targets = [node.target]  # type: ignore[attr-defined]
        elif kind is ast.With or kind is ast.AsyncWith:
            items: list[ast.withitem] = node.items  # type: ignore[attr-defined]
            targets = [i.optional_vars for i in items if i.optional_vars is not None]
        elif kind in _DEFINITIONS:
            out.add(node.name)  # type: ignore[attr-defined]
        elif kind is ast.Import or kind is ast.ImportFrom:
            aliases: list[ast.alias] = node.names  # type: ignore[attr-defined]
            out.update((a.asname or a.name).split(".")[0] for a in aliases)
        elif kind is ast.ExceptHandler:
            if node.name:  # type: ignore[attr-defined]
                out.add(node.name)  # type: ignore[attr-defined]
        elif kind is ast.match_case:
            out.update(
                n.name
                for n in walk(node.pattern)  # type: ignore[attr-defined]
                if isinstance(n, ast.MatchAs | ast.MatchStar) and n.name
            )
        elif walrus and (kind is ast.If or kind is ast.While):
            test: ast.expr = node.test  # type: ignore[attr-defined]
            if type(test) not in _BARE_TESTS:
                targets = [n.target for n in walk(test) if isinstance(n, ast.NamedExpr)]
        for target in targets:
            if type(target) is ast.Name:  # the usual target: nothing under it to walk
                out.add(target.id)
            else:
                out.update(n.id for n in walk(target) if isinstance(n, ast.Name))
        # The statements under a statement, a handler or a case are all in these lists: read
        # them directly rather than every field of the node (its expressions too).
        for field in _BLOCK_FIELDS:
            stack.extend(getattr(node, field, ()))
    return out


# Statements that bind no name and hold no statement: most of a function's.
_LEAVES = frozenset(
    {ast.Expr, ast.Return, ast.Raise, ast.Assert, ast.Pass, ast.Break, ast.Continue}
    | {ast.Global, ast.Nonlocal}
)
_ONE_TARGET = frozenset({ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor})
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_BARE_TESTS = frozenset({ast.Name, ast.Constant})  # hold no `:=`
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
