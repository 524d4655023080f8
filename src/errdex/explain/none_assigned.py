"""Whether an attribute is None because its constructor keyword was.

`assert self.connector_worker is not None`, where the constructor sets
`self.connector_worker = self._make_worker(config)` only `if role == Role.WORKER` (None
otherwise), is the attribute left unset because the branch was not taken, not because
`config` was None: "give `config` a value" names the wrong argument. Nor can `config` be
the None the check meets when the constructor reads `config.attr` (or `config[...]`, or
calls `config.method()`) on every run before it: None has no such attribute, the
constructor would have failed first. Either way "Give the argument ... a value (it is None
here)" is no way out, and is left out. Nor when the constructor fills the attribute itself
where the keyword is None (`if connection is None: self._dbapi_connection =
engine.raw_connection()`): a None keyword never leaves it None, something else did.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from errdex.ast_walk import walk_scope
from errdex.explain.context import Facts
from errdex.explain.init_values import own_init
from errdex.extract.shapes import is_name, is_none_test, own_attributes_set

# a guard no condition names: an `except` clause, a `case` of a `match`
_UNKNOWN_GUARD = ast.Name(id="<guard>")


def none_from_keyword(
    facts: Facts, owner: str, attribute: str, param: str, before: int | None = None
) -> bool:
    """Whether `self.<attribute>` being None can be `param` passed as None to `owner`'s
    constructor (in the site's file): False when every non-None value the constructor gives
    the attribute is under a condition on something else than `param`, or when it reads
    an attribute or an item of `param` on every run (before line `before`, for a check in
    the constructor itself). True when the constructor is not found."""
    init = own_init(facts, owner)
    if init is None:
        return True
    if _dereferenced(init, param, before) or _filled_when_none(init, attribute, param):
        return False
    set_values = [
        guards
        for value, guards in _assignments(init.body, attribute, [])
        if not (isinstance(value, ast.Constant) and value.value is None)
    ]
    # no value found here (a base's constructor sets it): nothing to say against it
    return not set_values or any(all(_only_on(g, param) for g in gs) for gs in set_values)


def _assignments(
    block: list[ast.stmt], attribute: str, guards: list[ast.expr]
) -> Iterator[tuple[ast.expr, list[ast.expr]]]:
    """Each value `self.<attribute>` is assigned in a block (not in nested functions), with
    the tests of the statements it sits under (`if`, `while`, a `for`'s iterable)."""
    for stmt in block:
        for name, value in own_attributes_set(stmt):
            if name == attribute:
                yield value, guards
        if isinstance(stmt, ast.If | ast.While):
            yield from _assignments(stmt.body, attribute, [*guards, stmt.test])
            yield from _assignments(stmt.orelse, attribute, [*guards, stmt.test])
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            yield from _assignments(stmt.body, attribute, [*guards, stmt.iter])
            yield from _assignments(stmt.orelse, attribute, [*guards, stmt.iter])
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            yield from _assignments(stmt.body, attribute, guards)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            yield from _assignments(stmt.body, attribute, guards)
            yield from _assignments(stmt.finalbody, attribute, guards)
            for handler in stmt.handlers:
                yield from _assignments(handler.body, attribute, [*guards, _UNKNOWN_GUARD])
            yield from _assignments(stmt.orelse, attribute, [*guards, _UNKNOWN_GUARD])
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                yield from _assignments(case.body, attribute, [*guards, _UNKNOWN_GUARD])


def _filled_when_none(init: ast.FunctionDef, attribute: str, param: str) -> bool:
    """Whether the constructor, under `if param is None:` (or `if not param:`, or the
    `else` of `if param is not None:`), gives `self.<attribute>` a value of its own
    (neither None nor `param`)."""
    for node in walk_scope(init.body):
        if not isinstance(node, ast.If):
            continue
        if _none_test(node.test, param):
            branch = node.body
        elif _none_test(_negated(node.test), param):
            branch = node.orelse
        else:
            continue
        for stmt in walk_scope(branch):
            if not isinstance(stmt, ast.stmt):
                continue
            for name, value in own_attributes_set(stmt):
                if name != attribute or (isinstance(value, ast.Constant) and value.value is None):
                    continue
                if not (isinstance(value, ast.Name) and value.id == param):
                    return True
    return False


def _none_test(test: ast.expr, param: str) -> bool:
    """`param is None`, `not param`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Name) and test.operand.id == param
    left = is_none_test(test)
    return left is not None and is_name(left, param)


def _negated(test: ast.expr) -> ast.expr:
    """`param is not None` as `param is None`, `param` as `not param`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot):
        return ast.Compare(left=test.left, ops=[ast.Is()], comparators=test.comparators)
    return ast.UnaryOp(op=ast.Not(), operand=test)


def _only_on(test: ast.expr, param: str) -> bool:
    """Whether a guard reads `param` alone (`if config is not None:`): then the keyword
    given is what takes the branch."""
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    return names == {param}


def _dereferenced(init: ast.FunctionDef, param: str, before: int | None) -> bool:
    """Whether the constructor reads `param.attr` or `param[...]` on every run (before line
    `before`), `param` never rebound: then a None `param` fails there first."""
    if any(
        isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Store)
        for n in ast.walk(init)
    ):
        return False
    for stmt in _every_run(init.body):
        if before is not None and stmt.lineno >= before:
            return False
        for expr in _evaluated(stmt):
            for node in _surely(expr):
                if _reads_part(node, param):
                    return True
    return False


def _every_run(block: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a block every run reaches, in order: into `with` bodies and the
    bodies of a `try` with no `except` (an `except` could catch the failure); an `if`,
    `for` or `while` as itself (its test), not its body. Stops at a `return` or `raise`,
    and after a statement that may return."""
    for stmt in block:
        if isinstance(stmt, ast.Return | ast.Raise):
            return
        if isinstance(stmt, ast.With | ast.AsyncWith):
            yield stmt
            yield from _every_run(stmt.body)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            if not stmt.handlers:
                yield from _every_run(stmt.body)
            return  # past a `try` the order is not followed further
        else:
            yield stmt
            if any(isinstance(n, ast.Return) for n in ast.walk(stmt)):
                return  # a run that returns early skips what follows


def _evaluated(stmt: ast.stmt) -> list[ast.expr]:
    """The expressions a statement evaluates every time it runs (an `if`'s test, not its
    body; an `assert` is skipped under -O)."""
    if isinstance(stmt, ast.Expr | ast.Return):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, ast.Assign):
        return [stmt.value, *stmt.targets]
    if isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        return [stmt.value, stmt.target] if stmt.value is not None else []
    if isinstance(stmt, ast.If | ast.While):
        return [stmt.test]
    if isinstance(stmt, ast.For | ast.AsyncFor):
        return [stmt.iter]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [item.context_expr for item in stmt.items]
    return []


def _surely(node: ast.expr) -> Iterator[ast.AST]:
    """The parts of an expression evaluated whenever it is: the first operand of `and`/
    `or`, the test of `x if c else y`; nothing inside a lambda; a comprehension's first
    iterable only."""
    yield node
    if isinstance(node, ast.BoolOp):
        yield from _surely(node.values[0])
    elif isinstance(node, ast.IfExp):
        yield from _surely(node.test)
    elif isinstance(node, ast.Lambda):
        return
    elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
        yield from _surely(node.generators[0].iter)
    else:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                yield from _surely(child)


def _reads_part(node: ast.AST, param: str) -> bool:
    """`param.attr` (not a dunder, which None has too) or `param[...]`."""
    if isinstance(node, ast.Attribute) and not node.attr.startswith("__"):
        return isinstance(node.value, ast.Name) and node.value.id == param
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id == param
    return False
