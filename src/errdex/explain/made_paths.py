"""A path a failed call of a `try` was given that the program made itself: not the user's.

vllm's `upload_data` opens `data_or_file` under a `try` that also uploads it to the user's
URL; both of its callers pass a staging file they made (`with staging_file(...) as f`:
`f.name`, or `f.getvalue()...`). "Check the path given to `open(data_or_file, 'rb')`" sends
the user after a file they never named. A path is the program's own when it is rooted (as
written, or through the locals it is computed from) in what a temporary-file call made
(`fd, tmp = tempfile.mkstemp(...)`, `with NamedTemporaryFile() as f`, `staging_file(...)`),
or when it is a parameter every caller in the same file gives such a value.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.call_binding import given_argument
from errdex.explain.context import Facts

__all__ = ["made_here"]

# what a call that makes a temporary file or folder is called: `mkstemp`,
# `NamedTemporaryFile`, `gettempdir`, `staging_file`
_TEMP_CALL = re.compile(r"te?mp|staging|scratch", re.I)
_DEPTH = 4  # locals followed back from a path


def made_here(value: ast.expr, facts: Facts) -> bool:
    """Whether the path `value` (an argument of a call in the site's function) is one the
    program makes itself."""
    function = _site_function(facts)
    if function is None:
        return False
    root = _root(value)
    if root is None:
        return False
    if _temp_rooted(root, function, facts.stored.site.line):
        return True
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if root not in params or _assigned(function, root):
        return False
    return _callers_make(facts, function, params.index(root), root)


def _site_function(facts: Facts) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The site's function; an `async def` (which `Facts.site_function` leaves out) is
    found in the parsed file."""
    function = facts.site_function()
    if function is not None:
        return function
    tree = facts.source_tree()
    if tree is None:
        return None
    line = facts.stored.site.line
    name = facts.stored.site.function.rpartition(".")[2]
    found = [
        n
        for n in walk(tree)
        if isinstance(n, ast.AsyncFunctionDef)
        and n.name == name
        and n.lineno <= line <= (n.end_lineno or n.lineno)
    ]
    return max(found, key=lambda n: n.lineno) if found else None


def _root(node: ast.expr) -> str | None:
    """The name an expression is read from: `f` of `f.name`, of `f.getvalue().strip()`,
    of `str(f)`, of `d / "x"`."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                node = node.func.value
            elif len(node.args) == 1 and not node.keywords:
                node = node.args[0]  # `str(p)`, `Path(p)`, `os.fsdecode(p)`
            else:
                return None
        elif isinstance(node, ast.BinOp):
            node = node.left
        else:
            return None


def _bindings(function: ast.AST) -> dict[str, list[tuple[int, ast.expr]]]:
    """What each local of `function` is assigned (or entered `with ... as` it), with the
    line."""
    out: dict[str, list[tuple[int, ast.expr]]] = {}
    for node in walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                for name in names:
                    if isinstance(name, ast.Name):
                        out.setdefault(name.id, []).append((node.lineno, node.value))
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                var = item.optional_vars
                if isinstance(var, ast.Name):
                    out.setdefault(var.id, []).append((node.lineno, item.context_expr))
    return out


def _assigned(function: ast.AST, name: str) -> bool:
    return name in _bindings(function)


def _temp_rooted(name: str, function: ast.AST, line: int) -> bool:
    """Whether the local `name`, as read at `line`, is made (through the other locals its
    last assignment above reads) of what a temporary-file call returns."""
    bindings = _bindings(function)
    seen: set[str] = set()
    for _ in range(_DEPTH):
        if name in seen:
            return False  # `path = Path(path)`: what it was given
        seen.add(name)
        above = [b for b in bindings.get(name, []) if b[0] <= line]
        if not above:
            return False
        line, value = max(above, key=lambda b: b[0])
        if _temp_call(value):
            return True
        root = _root(value)
        if root is None:
            return False
        name = root
    return False


def _temp_call(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = ast.unparse(node.func).rpartition(".")[2]
    return bool(_TEMP_CALL.search(name))


def _callers_make(
    facts: Facts, function: ast.FunctionDef | ast.AsyncFunctionDef, index: int, param: str
) -> bool:
    """Whether every direct caller of the site's function in its own file (one at least)
    gives `param` a path made of a temporary-file call's result."""
    tree = facts.source_tree()
    callers = [c for c in facts.callers if c.depth == 1 and c.file == facts.stored.file]
    if tree is None or not callers:
        return False
    defs = {
        n.lineno: n for n in walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    method = bool(function.args.args) and function.args.args[0].arg in ("self", "cls")
    for caller in callers:
        outer = [d for d in defs.values() if d.lineno <= caller.line <= (d.end_lineno or d.lineno)]
        if not outer:
            return False
        scope = max(outer, key=lambda d: d.lineno)  # the innermost def around the call
        given = [
            given_argument(n, param, index - int(method))
            for n in walk(scope)
            if isinstance(n, ast.Call)
            and n.lineno == caller.line
            and ast.unparse(n.func).rpartition(".")[2] == function.name
        ]
        if not given or any(g is None for g in given):
            return False
        for value in given:
            root = _root(value) if value is not None else None
            if root is None or not _temp_rooted(root, scope, caller.line):
                return False
    return True
