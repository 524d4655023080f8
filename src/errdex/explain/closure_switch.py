"""Ways out through a switch of the public function that made the function that raises.

click's `make_pass_decorator(object_type, ensure=False)` returns a decorator whose inner
`new_func` raises when `obj is None`; `obj` is `ctx.ensure_object(object_type)` under `if
ensure:` and `ctx.find_object(object_type)` otherwise. The user never calls `new_func`
by name: they called `make_pass_decorator`, and its `ensure` picks where `obj` comes from.
When the site is in a function nested in a public module-level function, and the local its
condition tests is assigned in both branches of `if P:` on a parameter `P` of that outer
function whose default (False or None) takes the other branch, the way out is to pass
`P=True` to the outer call.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.input_nodes import free_names
from errdex.explain.outline import defining
from errdex.explain.page import Change, ConditionView, Solution
from errdex.explain.plain import code
from errdex.facts import ConditionKind

_OFF = frozenset({"False", "None"})


def closure_switch_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Pass `ensure=True` to `click.decorators.make_pass_decorator`" for a check on a
    local that a switch of the outer public function assigns; else None."""
    site = facts.stored.site
    outer_name, _, rest = site.function.partition(".<locals>.")
    if not rest or outer_name.startswith("_") or "." in outer_name:
        return None
    inner = facts.site_function()
    outer = top_function(facts, outer_name)
    if inner is None or outer is None:
        return None
    for condition in conditions:
        if condition.kind is ConditionKind.EARLY_EXIT:
            continue
        try:
            names = set(free_names(ast.parse(condition.text, mode="eval").body))
        except (SyntaxError, ValueError, RecursionError):
            continue
        if len(names) != 1:
            continue
        local = names.pop()
        switch = _switch(inner, outer, local, site.line)
        if switch is not None:
            return _solution(facts, outer, switch, local, condition)
    return None


def _solution(
    facts: Facts,
    outer: ast.FunctionDef,
    switch: tuple[str, str, str],
    local: str,
    condition: ConditionView,
) -> Solution | None:
    param, on, off = switch
    module = public_module(facts.stored.file)
    if module is None:
        return None
    target = f"{module}.{outer.name}"
    text = (
        f"Pass {code(param + '=True')} to {code(target)}: then {code(local)} is "
        f"{code(on)} instead of {code(off)}, which gave what the check refuses."
    )
    return outer_call_solution(text, target, outer, param, "True", condition)


def outer_call_solution(
    text: str,
    target: str,
    outer: ast.FunctionDef,
    param: str,
    after: str,
    condition: ConditionView,
) -> Solution:
    """The solution that passes `param=after` to the outer public function `target`, with
    the `:param:` line of its docstring after `text` and the call it takes besides."""
    documented = param_doc(outer, param)
    if documented:
        text += f" Its docstring: “{documented}”"
    args = outer.args
    positional = [*args.posonlyargs, *args.args]
    required = positional[: len(positional) - len(args.defaults)]
    change = Change(
        form="call",
        target=target,
        argument=param,
        before=None,
        after=after,
        required=tuple(f"{a.arg}={a.arg.upper()}" for a in required if a.arg != param),
    )
    return Solution(text=text, condition=condition.text, kind="input", change=change)


def _switch(
    inner: ast.FunctionDef, outer: ast.FunctionDef, local: str, line: int
) -> tuple[str, str, str] | None:
    """(`ensure`, the value `local` gets when it is on, the value it gets by default) for
    an `if ensure: local = A else: local = B` before `line`, `ensure` a parameter of
    `outer` (not rebound by `inner`) whose default is off."""
    defaults = defaults_of(outer)
    own = {a.arg for a in [*inner.args.posonlyargs, *inner.args.args, *inner.args.kwonlyargs]}
    for node in walk(inner):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Name)):
            continue
        param = node.test.id
        if param in own or defaults.get(param) not in _OFF or node.end_lineno is None:
            continue
        if node.end_lineno >= line:
            continue  # the site must come after the branches, not inside them
        on, off = _assigned(node.body, local), _assigned(node.orelse, local)
        if on is not None and off is not None and on != off:
            return param, on, off
    return None


def _assigned(body: list[ast.stmt], local: str) -> str | None:
    """The value a branch of one statement assigns `local` (its source), else None."""
    if len(body) != 1 or not isinstance(body[0], ast.Assign | ast.AnnAssign):
        return None
    statement = body[0]
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    if statement.value is None or len(targets) != 1:
        return None
    target = targets[0]
    if not (isinstance(target, ast.Name) and target.id == local):
        return None
    return ast.unparse(statement.value)


def defaults_of(function: ast.FunctionDef) -> dict[str, str]:
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    found = {
        a.arg: ast.unparse(d)
        for a, d in zip(
            positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
        )
    }
    for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if d is not None:
            found[a.arg] = ast.unparse(d)
    return found


def top_function(facts: Facts, name: str) -> ast.FunctionDef | None:
    tree = facts.top_module(defining(name))
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


def public_module(file: str) -> str | None:
    """`click.decorators` of `click/decorators.py`; None for a private module's path."""
    if not file.endswith(".py"):
        return None
    parts = file[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or any(p.startswith("_") or not p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


def param_doc(function: ast.FunctionDef | ast.ClassDef, param: str) -> str | None:
    """The `:param ensure: ...` line of the function's docstring, joined, if it has one."""
    doc = ast.get_docstring(function)
    if not doc:
        return None
    found = re.search(rf":param {re.escape(param)}:(.+?)(?=\n\s*:|\n\s*\n|\Z)", doc, re.S)
    if found is None:
        return None
    return " ".join(found.group(1).split())
