"""A raise under `except TypeError` of a `try` that iterates what the user passed: the
argument is not iterable, and a list is the way out.

click's `Parameter.__init__` checks a default with `try: _check_iter(check_default) except
TypeError: raise ValueError("'default' must be a list when 'nargs' != 1.")`, where
`_check_iter` returns `iter(value)` after refusing a string, and `check_default` is the
`default` argument. The usual way out is a list `default`, not changing `nargs`: it is
found by reading the `try` (an `iter()` of the value, directly or through a function of the
same file that returns one) and following the value to the public function's argument.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.hook_result import protocol_name
from errdex.explain.input_nodes import assignment_targets, free_names
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.facts import ConditionKind


def iterated_solution(facts: Facts) -> Solution | None:
    """ "Pass a list for `default`": the `try` the raise sits under iterated it and failed."""
    function = facts.stored.site.function
    if not public_name(function) or not facts.read.params:
        return None
    for condition in facts.conditions:
        if condition.kind != ConditionKind.EXCEPT or "TypeError" not in condition.text:
            continue
        tried = facts.read.tries.get(condition.line)
        if tried is None or not tried.calls:
            continue
        found = _iterated_argument(facts, condition.line)
        if found is None:
            continue
        param, refuses_str = found
        also = " (a string does not count: the check refuses it)" if refuses_str else ""
        callee = code(function.removesuffix(".__init__"))
        return Solution(
            text=(
                f"Pass for the argument {code(param)} of {callee} a list or tuple of values"
                f"{also}: the `try` at line {tried.line} iterates it, and it failed with "
                f"`TypeError`, so the value given is not one."
            ),
            condition=condition.text,
            kind="input",
        )
    return None


def _iterated_argument(facts: Facts, except_line: int) -> tuple[str, bool] | None:
    """(the parameter the `try` iterates, whether a string is refused too)."""
    tree = facts.source_tree()
    if tree is None:
        return None
    handled = next(
        (
            node
            for node in walk(tree)
            if isinstance(node, ast.Try) and any(h.lineno == except_line for h in node.handlers)
        ),
        None,
    )
    if handled is None:
        return None
    iterators = _iterating_functions(tree)
    # a local assigned more than once (`check_default = next(_check_iter(check_default))`
    # under `multiple`) may hold something else than the argument when the `try` runs
    false = {c.text[4:] for c in facts.held if c.text.startswith("not ")}
    assigned = _assignment_counts(tree, handled, false)
    locals_ = {
        b.name: b.value for b in facts.bindings if b.origin == "local" and assigned.get(b.name) == 1
    }
    params = set(facts.read.params)
    for node in walk(ast.Module(body=handled.body, type_ignores=[])):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
            continue
        name = node.func.id
        if name != "iter" and name not in iterators:
            continue
        param = _parameter(node.args[0], locals_, params)
        if param is not None:
            return param, iterators.get(name, False)
    return None


def _assignment_counts(tree: ast.Module, inner: ast.Try, false: set[str]) -> dict[str, int]:
    """How often each name is assigned in the function that holds the `try`, leaving out
    the branches of an `if` whose test is false on the site's path (`false`)."""
    holder = next(
        (
            node
            for node in walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.lineno <= inner.lineno <= (node.end_lineno or node.lineno)
            and any(n is inner for n in walk(node))
        ),
        None,
    )
    counts: dict[str, int] = {}

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and ast.unparse(node.test) in false:
            for statement in node.orelse:
                visit(statement)
            return
        for target in assignment_targets(node):
            if isinstance(target, ast.Name):
                counts[target.id] = counts.get(target.id, 0) + 1
        for child in ast.iter_child_nodes(node):
            visit(child)

    if holder is not None:
        visit(holder)
    return counts


def _iterating_functions(tree: ast.Module) -> dict[str, bool]:
    """Module functions that return `iter()` of their first parameter → whether they
    refuse a string first (`if isinstance(value, str): raise TypeError`)."""
    out: dict[str, bool] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.args.args:
            continue
        first = node.args.args[0].arg
        returns_iter = any(
            isinstance(n, ast.Return)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Name)
            and n.value.func.id == "iter"
            and [ast.unparse(a) for a in n.value.args] == [first]
            for n in walk(node)
        )
        if not returns_iter:
            continue
        out[node.name] = any(
            isinstance(n, ast.If)
            and ast.unparse(n.test) == f"isinstance({first}, str)"
            and any(isinstance(s, ast.Raise) for s in n.body)
            for n in walk(node)
        )
    return out


def _parameter(node: ast.expr, locals_: dict[str, str], params: set[str]) -> str | None:
    """The one parameter a value is, directly or through a local assigned from it."""
    if isinstance(node, ast.Name) and node.id in params:
        return node.id
    if isinstance(node, ast.Name) and node.id in locals_:
        try:
            value = ast.parse(locals_[node.id], mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            return None
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and protocol_name(value.func.attr)
        ):
            return None  # what the object's own method returned: `hook_result` says it
        read = {n for n in free_names(value) if n in params}
        return read.pop() if len(read) == 1 else None
    return None
