"""Walk a module's statements, carrying the path to each, and tell the recorders what it meets.

One walker dispatches on statement kind (the handler is looked up once per node class, as
pyflakes' `getNodeHandler` does). It carries the conditions of the current path (if/elif/
else, earlier early exits, loops, except clauses, match cases) down into blocks, and the
function being walked (`Scope`). What a statement means is recorded by four recorders, each
with its own facts, called through plain methods:

- `error_sites.SiteRecorder`: raise, assert, warning, exit and log sites;
- `assignments.AssignmentRecorder`: locals, messages built in a variable, reasons lists;
- `calls_made.CallRecorder`: calls for their callers, raising helpers' candidate calls,
  tests that expect an error;
- `definitions.DefinitionRecorder`: functions, raising helpers, classes.

All of them read the file's `WalkState` (source text, blocks, conditions, templates).

A statement kind the walker has no handler for (new syntax) is skipped quietly, but raises
when `ERRDEX_ERROR_UNKNOWN=1` (the tests set it), so that a new kind is noticed.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from errdex.extract.assignments import AssignmentRecorder
from errdex.extract.block_flow import Holders
from errdex.extract.calls_made import CallRecorder
from errdex.extract.conditions import NAME_OR_ATTRIBUTE, dotted_name
from errdex.extract.definitions import DefinitionRecorder
from errdex.extract.error_sites import SiteRecorder
from errdex.extract.factories import FactoryRecorder
from errdex.extract.loop_exits import returns_from
from errdex.extract.scope import Assignment, Scope, Step, message_locals
from errdex.extract.shapes import (
    EXIT_FUNCS,
    OWN_OBJECT,
    WARN_FUNCS,
    always_exits,
    annotated_class,
    assigned_after,
    is_parser_error,
    log_level,
)
from errdex.extract.walk_state import WalkState
from errdex.facts import ConditionKind

# Set to "1" to make a statement kind without a handler raise instead of being skipped.
ERROR_UNKNOWN_ENV = "ERRDEX_ERROR_UNKNOWN"

# Builtins handed what one call returns (`list(gen())`, `sorted(items())`, `next(gen())`,
# `next(gen(), None)`): the inner call is the statement's call of the codebase. (Whether a
# generator's body runs there too, as it does in all but `iter`, the page tells:
# `explain/deferred_calls.py`.)
_CONSUMING = frozenset({"list", "tuple", "set", "frozenset", "dict", "sorted", "iter", "next"})

_Handler = Callable[["Walker", Any, Scope, tuple[Step, ...]], "tuple[Step, ...] | None"]


class UnknownStatementError(NotImplementedError):
    """A statement kind the walker has no handler for (raised only under ERRDEX_ERROR_UNKNOWN)."""


class Walker:
    """Walks one file's tree once; its recorders hold the facts found."""

    def __init__(
        self, text: str, constants: dict[str, Any], imports: Mapping[str, str] | None = None
    ) -> None:
        self.state = WalkState(text, constants, imports)
        self.sites = SiteRecorder(self.state)
        self.assignments = AssignmentRecorder(self.state)
        self.calls = CallRecorder(self.state)
        self.definitions = DefinitionRecorder(self.state)
        self.factories = FactoryRecorder(self.state)
        # A statement's line → the function and class it is in, as `Enclosing.chain` of
        # the line tells them (the innermost statement starting on the line deciding): what
        # a site's or call's reading needs, which it found again by the line alone.
        self.holders: dict[int, Holders] = {}
        # The current statement's holders (a def or class under an `if`, loop, `try`,
        # `with` or `match` block holds its lines as one outside any does).
        self._held: Holders = (None, None)

    def run(self, tree: ast.Module) -> None:
        self._body(tree.body, Scope("<module>", None, is_function=False), ())

    # -- blocks and paths ------------------------------------------------------------------

    def _body(
        self, stmts: Sequence[ast.stmt], scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...]:
        """Walk a block; return the path that holds after it (its early exits added)."""
        current = path
        holders, held = self.holders, self._held
        for stmt in stmts:
            holders[stmt.lineno] = held
            handler = _HANDLERS.get(type(stmt)) or _handler_for(type(stmt))
            after = handler(self, stmt, scope, current)
            if after is not None:  # a `with`/`try` body's early exits hold after it
                current = after
            if isinstance(stmt, ast.If):
                current = (*current, *self._fallthrough(stmt))
                if stmt.orelse and scope.is_function:
                    scope.branchings.append((stmt, self.state.blocks))
            elif isinstance(stmt, _LOOPS) and scope.is_function and returns_from(stmt):
                # past a loop that returns on a match, none matched (`loop_exits.py`)
                current = (*current, Step(stmt, ConditionKind.NO_MATCH, holds=False))
        return current

    def _nested(
        self, stmts: Sequence[ast.stmt], scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...]:
        state = self.state
        outer = state.open_block()
        try:
            return self._body(stmts, scope, path)
        finally:
            state.blocks = outer

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
            for test, source in zip(tests, map(self.state.source, tests), strict=True)
        )
        condition = self.state.conditions.make_text(text, ConditionKind.EARLY_EXIT, stmt.lineno)
        return Step(either, ConditionKind.EARLY_EXIT, condition=condition)

    # -- definitions -----------------------------------------------------------------------

    def _FunctionDef(
        self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, path: tuple[Step, ...]
    ) -> None:
        inner = self._function_scope(stmt, scope)
        self.definitions.function_entered(stmt, scope, inner)
        for name in inner.params:
            inner.assigns.setdefault(name, []).append(Assignment(stmt.lineno, None, (), ()))
        state = self.state
        outer, state.blocks = state.blocks, ()  # a function's blocks start afresh
        held = self._held
        self._held = self.holders[stmt.lineno] = (stmt, held[1])
        try:
            after = self._body(stmt.body, inner, ())
        finally:
            state.blocks = outer
            self._held = held
        self.definitions.function_walked(stmt, scope, inner, after)

    _AsyncFunctionDef = _FunctionDef

    def _function_scope(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> Scope:
        """The scope a function defined in `scope` is walked in."""
        if scope.is_function:
            qualname = f"{scope.qualname}.<locals>.{stmt.name}"
        elif scope.qualname == "<module>":
            qualname = stmt.name
        else:
            qualname = f"{scope.qualname}.{stmt.name}"
        args = stmt.args
        arguments = (*args.posonlyargs, *args.args, *args.kwonlyargs)
        params = tuple([a.arg for a in arguments])
        if scope.class_name is not None and not scope.is_function and params:
            params = params[1:] if params[0] in OWN_OBJECT else params
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
            built = message_locals(scope, self.state.blocks)
            if built:
                later = assigned_after(scope.body, stmt.end_lineno or stmt.lineno)
                inner.messages = {
                    name: [(template, ())]
                    for name, template in built.items()
                    if name not in params and name not in later
                }
        return inner

    def _ClassDef(self, stmt: ast.ClassDef, scope: Scope, path: tuple[Step, ...]) -> None:
        if scope.qualname == "<module>":
            qualname = stmt.name
        elif scope.is_function:
            qualname = f"{scope.qualname}.<locals>.{stmt.name}"
        else:
            qualname = f"{scope.qualname}.{stmt.name}"
        held = self._held
        self._held = self.holders[stmt.lineno] = (held[0], stmt)
        try:
            self._body(stmt.body, Scope(qualname, qualname, is_function=False), ())
        finally:
            self._held = held
        self.definitions.class_walked(stmt, qualname)

    # -- statements that open blocks -------------------------------------------------------

    def _If(self, stmt: ast.If, scope: Scope, path: tuple[Step, ...]) -> None:
        self._if(stmt, scope, path, ConditionKind.IF)

    def _if(self, stmt: ast.If, scope: Scope, path: tuple[Step, ...], kind: ConditionKind) -> None:
        test = stmt.test
        kind_of = type(test)
        # (only these shapes may bind a name: `(m := ...)`, `a and (m := ...)`,
        # `(m := ...) is not None`; asked here, most tests are spared the call)
        if (
            kind_of is ast.NamedExpr
            or kind_of is ast.BoolOp
            or (kind_of is ast.Compare and type(test.left) is ast.NamedExpr)  # type: ignore[attr-defined]
        ):
            self.assignments.tested(test, scope, path)
        self._nested(stmt.body, scope, (*path, Step(stmt.test, kind)))
        if not stmt.orelse:
            return
        if len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If):
            negated = Step(stmt.test, ConditionKind.ELIF, holds=False)
            self._if(stmt.orelse[0], scope, (*path, negated), ConditionKind.ELIF)
        else:
            negated = Step(stmt.test, ConditionKind.ELSE, holds=False)
            self._nested(stmt.orelse, scope, (*path, negated))

    def _For(self, stmt: ast.For | ast.AsyncFor, scope: Scope, path: tuple[Step, ...]) -> None:
        self._nested(stmt.body, scope, (*path, Step(stmt, ConditionKind.LOOP)))
        self._nested(stmt.orelse, scope, path)

    _AsyncFor = _For

    def _While(self, stmt: ast.While, scope: Scope, path: tuple[Step, ...]) -> None:
        self._nested(stmt.body, scope, (*path, Step(stmt.test, ConditionKind.LOOP)))
        self._nested(stmt.orelse, scope, path)

    def _Try(
        self, stmt: ast.Try | ast.TryStar, scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...] | None:
        after = self._nested(stmt.body, scope, path)
        for handler in stmt.handlers:
            caught = self.state.source(handler.type) if handler.type is not None else None
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
        self.calls.expecting(stmt, scope)
        return self._nested(stmt.body, scope, path)

    _AsyncWith = _With

    def _Match(self, stmt: ast.Match, scope: Scope, path: tuple[Step, ...]) -> None:
        for case in stmt.cases:
            steps: tuple[Step, ...] = (
                Step(case.pattern, ConditionKind.MATCH, subject=stmt.subject),
            )
            if case.guard is not None:
                steps = (*steps, Step(case.guard, ConditionKind.IF))
            self._nested(case.body, scope, (*path, *steps))

    # -- simple statements -----------------------------------------------------------------

    def _Raise(self, stmt: ast.Raise, scope: Scope, path: tuple[Step, ...]) -> None:
        self.sites.raised(stmt, scope, path)

    def _Assert(self, stmt: ast.Assert, scope: Scope, path: tuple[Step, ...]) -> None:
        self.sites.asserted(stmt, scope, path)
        if scope.is_function:
            self.calls.narrowed(stmt.test, scope)

    def _Expr(self, stmt: ast.Expr, scope: Scope, path: tuple[Step, ...]) -> None:
        value = stmt.value
        if isinstance(value, ast.Yield | ast.YieldFrom):
            # `yield Field(name=name, value=item)`: a generator's call is a call all the same
            given = value.value
            if isinstance(given, ast.Await):
                given = given.value
            if isinstance(given, ast.Call):
                self.calls.noted(stmt, given, scope, path)
                self._wrapped(stmt, given, scope, path)
        elif isinstance(value, ast.Await):
            value = value.value
            if isinstance(value, ast.Call):
                self.calls.noted(stmt, value, scope, path)
        elif isinstance(value, ast.Call):
            self._call(stmt, value, scope, path)

    def _Assign(self, stmt: ast.Assign, scope: Scope, path: tuple[Step, ...]) -> None:
        if len(stmt.targets) == 1:
            self.assignments.assigned(stmt.targets[0], stmt.value, stmt, scope, path)
        # (a plain name, most assignments, is no attribute of the object)
        if scope.is_function and (len(stmt.targets) > 1 or type(stmt.targets[0]) is not ast.Name):
            self.assignments.own_assigned(stmt.targets, stmt.value, stmt, scope, path)
        if isinstance(stmt.value, ast.Call):
            self._call(stmt, stmt.value, scope, path)
        elif isinstance(stmt.value, ast.Await) and isinstance(stmt.value.value, ast.Call):
            self.calls.noted(stmt, stmt.value.value, scope, path)

    def _AnnAssign(self, stmt: ast.AnnAssign, scope: Scope, path: tuple[Step, ...]) -> None:
        annotated = annotated_class(stmt.annotation)
        if annotated is not None and isinstance(stmt.target, ast.Name) and scope.is_function:
            scope.types[stmt.target.id] = annotated
        if stmt.value is not None:
            self.assignments.assigned(stmt.target, stmt.value, stmt, scope, path)
            if scope.is_function and type(stmt.target) is ast.Attribute:
                self.assignments.own_assigned([stmt.target], stmt.value, stmt, scope, path)
            if isinstance(stmt.value, ast.Call):
                self.calls.noted(stmt, stmt.value, scope, path)
                self._wrapped(stmt, stmt.value, scope, path)

    def _AugAssign(self, stmt: ast.AugAssign, scope: Scope, path: tuple[Step, ...]) -> None:
        self.assignments.augmented(stmt, scope, path)
        if scope.is_function and type(stmt.target) is ast.Attribute:
            self.assignments.own_assigned([stmt.target], None, stmt, scope, path)

    def _Return(self, stmt: ast.Return, scope: Scope, path: tuple[Step, ...]) -> None:
        value = stmt.value
        if scope.is_function:
            self.factories.returned(stmt, scope)
        if value is None or not scope.is_function:
            return
        self.definitions.returned_text(value, scope)
        if isinstance(value, ast.Call):
            self._call(stmt, value, scope, path)
        else:
            self.assignments.returned(value, scope, path)

    def _wrapped(
        self, stmt: ast.stmt, call: ast.Call, scope: Scope, path: tuple[Step, ...]
    ) -> None:
        """The call a builtin consumes the result of, `list(self._iter_fields(data))`: noted
        too, as the call the statement makes of the codebase."""
        func = call.func
        if type(func) is not ast.Name or func.id not in _CONSUMING or not call.args:
            return
        # one iterable; `next` takes a default after it (`next(gen(), None)`)
        if len(call.args) == 1 or (func.id == "next" and len(call.args) == 2):
            inner = call.args[0]
            if type(inner) is ast.Call:
                self.calls.noted(stmt, inner, scope, path)

    def _call(self, stmt: ast.stmt, call: ast.Call, scope: Scope, path: tuple[Step, ...]) -> None:
        """A call standing as a statement or assigned: noted for its callers, then a warning,
        exit or log site, a reasons list growing, or a raising helper's candidate call."""
        self.calls.noted(stmt, call, scope, path)
        self._wrapped(stmt, call, scope, path)
        func = call.func
        if not isinstance(func, NAME_OR_ATTRIBUTE):
            return
        name = dotted_name(func) or ""
        if name in WARN_FUNCS:
            self.sites.warned(stmt, call, scope, path)
            return
        if name in EXIT_FUNCS and call.args and self.state.stringy(call.args[0]):
            self.sites.exited(stmt, call, scope, path)
            return
        if is_parser_error(func) and len(call.args) == 1:  # (its one argument is the message)
            self.sites.exited(stmt, call, scope, path, printer="argparse")
            return
        if isinstance(func, ast.Attribute):
            level = log_level(func, call)
            if level is not None:
                self.sites.logged(stmt, call, scope, path, level)
                return
            target = func.value
            if (
                isinstance(target, ast.Name)
                and target.id in scope.lists
                and func.attr in ("append", "extend")
            ):
                # A reasons list growing. Any other method of a name that may hold one
                # (`items = load()`: a list, or anything else) may be a helper's.
                self.assignments.list_call(func.attr, call, scope.lists[target.id], scope, path)
                return
        self.calls.helper_candidate(
            stmt,
            call,
            func,
            scope,
            path,
            lambda: self.sites.chosen_argument(call, scope, stmt.lineno, path),
        )

    def _no_facts(self, stmt: ast.stmt, scope: Scope, path: tuple[Step, ...]) -> None:
        """Statements that hold no site, call or assignment the recorders follow."""

    _Pass = _Break = _Continue = _no_facts
    _Import = _Global = _Nonlocal = _Delete = _TypeAlias = _no_facts

    def _ImportFrom(self, stmt: ast.ImportFrom, scope: Scope, path: tuple[Step, ...]) -> None:
        self.calls.imported_here(stmt, scope)

    def _unknown(self, stmt: ast.stmt, scope: Scope, path: tuple[Step, ...]) -> None:
        if os.environ.get(ERROR_UNKNOWN_ENV) == "1":
            raise UnknownStatementError(
                f"no handler for {type(stmt).__name__} (line {getattr(stmt, 'lineno', '?')})"
            )


_LOOPS = (ast.For, ast.AsyncFor)  # made once, not a union at each test
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


# Statement class → its handler (`Walker._If` for `ast.If`), found by name once per class.
_HANDLERS: dict[type[ast.AST], _Handler] = {}


def _handler_for(node_type: type[ast.AST]) -> _Handler:
    handler: _Handler = getattr(Walker, "_" + node_type.__name__, Walker._unknown)
    _HANDLERS[node_type] = handler
    return handler
