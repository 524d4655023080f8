"""Statements that may hold a call (expressions, assignments, returns): each call is noted
for its callers, then made a warning, exit or log site, a change to a reasons list, or a
candidate call of a raising helper. A returned reasons list makes the function a builder.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import msgspec

from errdex.extract.assignments import AssignmentTracker
from errdex.extract.calls import call_target
from errdex.extract.conditions import dotted_name
from errdex.extract.error_sites import ErrorSiteRecorder
from errdex.extract.scope import Reasons, Scope, Step, literal_defaults
from errdex.extract.shapes import (
    EXIT_FUNCS,
    MESSAGE_PARAMS,
    NOT_HELPERS,
    WARN_FUNCS,
    annotated_class,
    call_shape,
    log_level,
    names_imported_constant,
    receiver,
)
from errdex.facts import CallFact, CallSite, SiteKind


class CallRecorder(ErrorSiteRecorder, AssignmentTracker):
    """Walks the statements that hold calls, and keeps the calls made."""

    def _Expr(self, stmt: ast.Expr, scope: Scope, path: tuple[Step, ...]) -> None:
        value = stmt.value
        if isinstance(value, ast.Await):
            value = value.value
            if isinstance(value, ast.Call):
                self._note_call(stmt, value, scope, path)
        elif isinstance(value, ast.Call):
            self._call(stmt, value, scope, path)

    def _Assign(self, stmt: ast.Assign, scope: Scope, path: tuple[Step, ...]) -> None:
        if len(stmt.targets) == 1:
            self._assign(stmt.targets[0], stmt.value, stmt, scope, path)
        if isinstance(stmt.value, ast.Call):
            self._call(stmt, stmt.value, scope, path)
        elif isinstance(stmt.value, ast.Await) and isinstance(stmt.value.value, ast.Call):
            self._note_call(stmt, stmt.value.value, scope, path)

    def _AnnAssign(self, stmt: ast.AnnAssign, scope: Scope, path: tuple[Step, ...]) -> None:
        annotated = annotated_class(stmt.annotation)
        if annotated is not None and isinstance(stmt.target, ast.Name) and scope.is_function:
            scope.types[stmt.target.id] = annotated
        if stmt.value is not None:
            self._assign(stmt.target, stmt.value, stmt, scope, path)
            if isinstance(stmt.value, ast.Call):
                self._note_call(stmt, stmt.value, scope, path)

    def _Return(self, stmt: ast.Return, scope: Scope, path: tuple[Step, ...]) -> None:
        value = stmt.value
        if value is None or not scope.is_function:
            return
        if isinstance(value, ast.Name) and value.id in scope.lists:
            returned = scope.returned or Reasons()
            found = scope.lists[value.id]
            returned.variants.extend(found.variants)
            returned.calls.extend(found.calls)
            scope.returned = returned
        elif isinstance(value, ast.List) and value.elts:
            reasons = self._list_items(value.elts, scope, path)
            if reasons:
                scope.returned = scope.returned or Reasons()
                scope.returned.variants.extend(reasons)
        elif isinstance(value, ast.Call):
            self._call(stmt, value, scope, path)

    def _call(self, stmt: ast.stmt, call: ast.Call, scope: Scope, path: tuple[Step, ...]) -> None:
        self._note_call(stmt, call, scope, path)
        func = call.func
        if not isinstance(func, ast.Name | ast.Attribute):
            return
        name = dotted_name(func) or ""
        if name in WARN_FUNCS:
            self._warn(stmt, call, scope, path)
            return
        if name in EXIT_FUNCS and call.args and self._stringy(call.args[0]):
            message = self._template(call.args[0], scope)
            self._site(stmt, scope, path, SiteKind.EXIT, "SystemExit", message)
            return
        if isinstance(func, ast.Attribute):
            level = log_level(func, call)
            if level is not None:
                self._log(stmt, call, scope, path, level)
                return
            target = func.value
            if (
                isinstance(target, ast.Name)
                and target.id in scope.lists
                and func.attr in ("append", "extend")
            ):
                # A reasons list growing. Any other method of a name that may hold one
                # (`items = load()`: a list, or anything else) may be a helper's.
                self._list_call(func.attr, call, scope.lists[target.id], scope, path)
                return
        self._helper_candidate(stmt, call, func, scope, path)

    def _note_call(
        self, stmt: ast.stmt, call: ast.Call, scope: Scope, path: tuple[Step, ...]
    ) -> None:
        """Record a call that may be of the codebase's own function (for its callers)."""
        target = call_target(call)
        if target is None:
            return
        callee, receiver = target
        self._pending_calls.append(
            (CallSite(callee, receiver, stmt.lineno, scope.qualname, scope.class_name), path)
        )

    def _message_like(self, node: ast.expr) -> bool:
        """Whether an argument may be a raising helper's message: text, or the name of
        another module's constant (`fail(NOT_FOUND)`, resolved by the linker)."""
        return self._stringy(node) or names_imported_constant(node, self.imports)

    def call_sites(self, keep: Callable[[CallSite], bool]) -> tuple[CallSite, ...]:
        """The recorded calls that `keep` accepts, each with its guard (worked out now)."""
        return tuple(
            msgspec.structs.replace(call, conditions=self._conditions_of(path))
            for call, path in self._pending_calls
            if keep(call)
        )

    def _helper_candidate(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        func: ast.Name | ast.Attribute,
        scope: Scope,
        path: tuple[Step, ...],
    ) -> None:
        callee = func.attr if isinstance(func, ast.Attribute) else func.id
        if callee in NOT_HELPERS:
            return
        # A call passing on a message parameter of its function (`def warn(msg):
        # _warnings_warn(msg, SAWarning)`) makes that function a helper too, when the
        # linker finds the callee is one: it needs the function's parameters.
        forwards = not MESSAGE_PARAMS.isdisjoint(scope.params) and any(
            _passes_on(a, scope.params) for a in call.args
        )
        arguments = (*call.args, *(keyword.value for keyword in call.keywords))
        if not forwards and not any(self._message_like(a) for a in arguments):
            return
        self.calls.append(
            CallFact(
                callee=callee,
                receiver=receiver(func),
                line=stmt.lineno,
                end_line=stmt.end_lineno or stmt.lineno,
                function=scope.qualname,
                class_name=scope.class_name,
                args=self._args(call, scope),
                conditions=self._conditions_of(path),
                params=scope.params if forwards else (),
                defaults=literal_defaults(scope) if forwards else {},
                receiver_type=_receiver_type(func, scope),
            )
        )


def _passes_on(arg: ast.expr, params: tuple[str, ...]) -> bool:
    """Whether the argument is a message parameter, or something made from one first
    (`exc.SAWarning(msg, code=code)`)."""
    if isinstance(arg, ast.Call) and arg.args:
        arg = arg.args[0]
    return isinstance(arg, ast.Name) and arg.id in params and arg.id in MESSAGE_PARAMS


def _receiver_type(func: ast.Name | ast.Attribute, scope: Scope) -> str | None:
    """What the code says the object a method is called on is (`CallFact.receiver_type`):
    the call that returned it, used at once (`get_config().check(...)`) or kept in a name,
    or the class a name is annotated with, here or in the functions around this one."""
    target = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(target, ast.Call):
        return call_shape(target)
    if not isinstance(target, ast.Name) or target.id in ("self", "cls"):
        return None
    name = target.id
    around: Scope | None = scope
    while around is not None:
        if name in around.types:
            return around.types[name]
        assigned = around.assigns.get(name)
        if assigned:  # its last assignment so far
            value = assigned[-1].value
            if isinstance(value, ast.Call):
                return call_shape(value)
            if value is None and around.class_name == around.qualname.rpartition(".")[0]:
                # A method's parameter: what the method it overrides annotates it with.
                return f"{around.qualname}({name})"
            return None
        around = around.outer
    return None
