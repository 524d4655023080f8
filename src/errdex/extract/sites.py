"""Walk a module's statements and record its error sites with the path that leads to each.

The walker dispatches on statement kind (as pyflakes does). It carries the conditions of the
current path (if/elif/else, earlier early exits, loops, except clauses, match cases) down
into blocks, and per function the local facts a site needs: messages built in a variable
first, reasons lists, and the last assignment of each name.

This module holds the dispatch and the statements that open blocks (def, class, if, loops,
try, with, match). The rest of `SiteExtractor` comes from its bases: `extractor_base.py`
(collected facts, sources, conditions, templates), `error_sites.py` (raise, assert, warn,
log), `assignments.py` (locals and reasons lists), `call_statements.py` (calls, and the
statements that hold them) and `definitions.py` (raising helpers, classes).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from errdex.extract.call_statements import CallRecorder
from errdex.extract.calls import expected_errors, is_property, property_fact
from errdex.extract.definitions import DefinitionRecorder
from errdex.extract.scope import Assignment, Scope, Step, message_locals
from errdex.extract.shapes import always_exits, annotated_class, assigned_after
from errdex.facts import ConditionKind


class SiteExtractor(CallRecorder, DefinitionRecorder):
    """Collects sites, classes, raising helpers, message-like calls and reason builders."""

    def run(self, tree: ast.Module) -> None:
        self._body(tree.body, Scope("<module>", None, is_function=False), ())

    def _body(
        self, stmts: Sequence[ast.stmt], scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...]:
        """Walk a block; return the path that holds after it (its early exits added)."""
        current = path
        for stmt in stmts:
            after = self._stmt(stmt, scope, current)
            if after is not None:  # a `with`/`try` body's early exits hold after it
                current = after
            if isinstance(stmt, ast.If):
                current = (*current, *self._fallthrough(stmt))
                if stmt.orelse and scope.is_function:
                    scope.branchings.append((stmt, self._blocks))
        return current

    def _stmt(
        self, stmt: ast.stmt, scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...] | None:
        handler = _HANDLERS.get(type(stmt))
        if handler is None:
            return None
        after: tuple[Step, ...] | None = handler(self, stmt, scope, path)
        return after

    def _nested(
        self, stmts: Sequence[ast.stmt], scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...]:
        self._block_counter += 1
        outer = self._blocks
        self._blocks = (*outer, self._block_counter)
        try:
            return self._body(stmts, scope, path)
        finally:
            self._blocks = outer

    def _fallthrough(self, stmt: ast.If) -> list[Step]:
        """What must hold to get past an `if` whose branches may exit (return, raise, ...)."""
        body_exits = always_exits(stmt.body)
        if not stmt.orelse:
            return [Step(stmt.test, ConditionKind.EARLY_EXIT, holds=False)] if body_exits else []
        else_exits = always_exits(stmt.orelse)
        if body_exits and else_exits:
            return []  # nothing after it runs
        if body_exits:
            steps = [Step(stmt.test, ConditionKind.EARLY_EXIT, holds=False)]
            if len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If):
                steps.extend(self._fallthrough(stmt.orelse[0]))  # `elif ...: return`
            return steps
        if else_exits:
            return [Step(stmt.test, ConditionKind.EARLY_EXIT, holds=True)]
        tests = _chain_tests(stmt)
        return [self._either(stmt, tests)] if tests else []

    def _either(self, stmt: ast.If, tests: list[ast.expr]) -> Step:
        """What holds after `if a: ... elif b: ... else: raise`: `a or b`, one condition."""
        either = ast.BoolOp(op=ast.Or(), values=tests)
        text = " or ".join(
            f"({source})" if isinstance(test, _LOOSER_THAN_OR) else source
            for test, source in zip(tests, map(self._source, tests), strict=True)
        )
        condition = self._conditions.make_text(text, ConditionKind.EARLY_EXIT, stmt.lineno)
        return Step(either, ConditionKind.EARLY_EXIT, condition=condition)

    def _FunctionDef(
        self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, path: tuple[Step, ...]
    ) -> None:
        if scope.is_function:
            qualname = f"{scope.qualname}.<locals>.{stmt.name}"
        elif scope.qualname == "<module>":
            qualname = stmt.name
        else:
            qualname = f"{scope.qualname}.{stmt.name}"
        args = stmt.args
        arguments = (*args.posonlyargs, *args.args, *args.kwonlyargs)
        params = tuple(a.arg for a in arguments)
        if scope.class_name is not None and not scope.is_function and params:
            params = params[1:] if params[0] in ("self", "cls") else params
        inner = Scope(
            qualname,
            scope.class_name,
            is_function=True,
            params=params,
            arguments=args,
            body=stmt.body,
            types={a.arg: found for a in arguments if (found := annotated_class(a.annotation))},
            outer=scope if scope.is_function else None,
        )
        if scope.is_function:
            # A closure reads the messages its enclosing function built before the `def`
            # (`errmsg = f"..."; def check(g): raise Error(errmsg)`), unless it binds the
            # name, or the enclosing function binds it again after (it is read when called).
            built = message_locals(scope, self._blocks)
            if built:
                later = assigned_after(scope.body, stmt.end_lineno or stmt.lineno)
                inner.messages = {
                    name: (template, ())
                    for name, template in built.items()
                    if name not in params and name not in later
                }
        returned = annotated_class(stmt.returns)
        if returned is not None:
            self.returns[qualname] = returned
        if inner.types and scope.class_name is not None and not scope.is_function:
            self.params[qualname] = inner.types  # what an override's parameters are
        self.functions_at[stmt.lineno] = (qualname, scope.class_name)
        if scope.qualname == "<module>":
            self.defs.append(stmt.name)
        elif scope.class_name is not None and not scope.is_function and is_property(stmt):
            self.properties.append(property_fact(stmt, qualname))
        for name in params:
            inner.assigns.setdefault(name, []).append(Assignment(stmt.lineno, None, (), ()))
        blocks, self._blocks = self._blocks, ()
        try:
            self._after_body[stmt.lineno] = self._body(stmt.body, inner, ())
        finally:
            self._blocks = blocks
        if inner.returned is not None and (inner.returned.variants or inner.returned.calls):
            self.reason_builders[qualname] = inner.returned.freeze()
        self._find_helper(stmt, inner)
        if scope.class_name is not None and not scope.is_function and params:
            self._find_keyed(stmt, inner)

    _AsyncFunctionDef = _FunctionDef

    def _ClassDef(self, stmt: ast.ClassDef, scope: Scope, path: tuple[Step, ...]) -> None:
        if scope.qualname == "<module>":
            qualname = stmt.name
        elif scope.is_function:
            qualname = f"{scope.qualname}.<locals>.{stmt.name}"
        else:
            qualname = f"{scope.qualname}.{stmt.name}"
        inner = Scope(qualname, qualname, is_function=False)
        self._body(stmt.body, inner, ())
        self.classes.append(self._class_fact(stmt, qualname))

    def _If(self, stmt: ast.If, scope: Scope, path: tuple[Step, ...]) -> None:
        self._if(stmt, scope, path, ConditionKind.IF)

    def _if(self, stmt: ast.If, scope: Scope, path: tuple[Step, ...], kind: ConditionKind) -> None:
        self._nested(stmt.body, scope, (*path, self._step(stmt.test, kind)))
        if not stmt.orelse:
            return
        if len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If):
            negated = self._step(stmt.test, ConditionKind.ELIF, holds=False)
            self._if(stmt.orelse[0], scope, (*path, negated), ConditionKind.ELIF)
        else:
            negated = self._step(stmt.test, ConditionKind.ELSE, holds=False)
            self._nested(stmt.orelse, scope, (*path, negated))

    def _For(self, stmt: ast.For | ast.AsyncFor, scope: Scope, path: tuple[Step, ...]) -> None:
        self._nested(stmt.body, scope, (*path, Step(stmt, ConditionKind.LOOP)))
        self._nested(stmt.orelse, scope, path)

    _AsyncFor = _For

    def _While(self, stmt: ast.While, scope: Scope, path: tuple[Step, ...]) -> None:
        self._nested(stmt.body, scope, (*path, self._step(stmt.test, ConditionKind.LOOP)))
        self._nested(stmt.orelse, scope, path)

    def _Try(
        self, stmt: ast.Try | ast.TryStar, scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...] | None:
        after = self._nested(stmt.body, scope, path)
        for handler in stmt.handlers:
            caught = self._source(handler.type) if handler.type is not None else None
            step = Step(handler, ConditionKind.EXCEPT)
            scope.handlers.append((caught, handler.name))
            try:
                self._nested(handler.body, scope, (*path, step))
            finally:
                scope.handlers.pop()
        after = self._nested(stmt.orelse, scope, after)
        self._nested(stmt.finalbody, scope, path)
        # The body's early exits hold after the statement unless a handler falls through.
        return after if all(always_exits(h.body) for h in stmt.handlers) else None

    _TryStar = _Try

    def _With(
        self, stmt: ast.With | ast.AsyncWith, scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...]:
        if scope.is_function:
            self.tests.extend(expected_errors(stmt, scope.qualname))
        return self._nested(stmt.body, scope, path)

    _AsyncWith = _With

    def _Match(self, stmt: ast.Match, scope: Scope, path: tuple[Step, ...]) -> None:
        for case in stmt.cases:
            steps: tuple[Step, ...] = (
                Step(case.pattern, ConditionKind.MATCH, subject=stmt.subject),
            )
            if case.guard is not None:
                steps = (*steps, self._step(case.guard, ConditionKind.IF))
            self._nested(case.body, scope, (*path, *steps))


# Tests that need parentheses to be one operand of `or`.
_LOOSER_THAN_OR = (ast.IfExp, ast.Lambda, ast.NamedExpr)


def _chain_tests(stmt: ast.If) -> list[ast.expr] | None:
    """The tests of an `if`/`elif` chain whose branches all fall through but its final
    `else`, which exits: past it, one of them held. None for any other chain."""
    tests = [stmt.test]
    while not always_exits(stmt.body):
        orelse = stmt.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            stmt = orelse[0]
            tests.append(stmt.test)
            continue
        return tests if len(tests) > 1 and orelse and always_exits(orelse) else None
    return None


# Statement type → its handler (`_If` for `ast.If`), looked up once rather than by name per
# statement.
_HANDLERS: dict[type[ast.AST], Callable[..., tuple[Step, ...] | None]] = {
    node_type: handler
    for node_type in vars(ast).values()
    if isinstance(node_type, type) and issubclass(node_type, ast.stmt) and node_type is not ast.stmt
    if (handler := getattr(SiteExtractor, "_" + node_type.__name__, None)) is not None
}
