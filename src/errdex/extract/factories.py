"""Functions that make an exception and return it, for `raise make_error(...)` to raise.

`def _type_error(name, value): return TypeError(f"{name} must be ...")` then `raise
_type_error("size", size)`: the class and text are written in the function, not at the
raise. A function is one only when every `return` of it gives a call of a class named in
capitals (or a local surely made as one); the linker checks that class is an exception.
"""

from __future__ import annotations

import ast

from errdex.extract.conditions import dotted_name
from errdex.extract.scope import Scope
from errdex.extract.shapes import MESSAGE_PARAMS, formatted_name, message_arg
from errdex.extract.walk_state import WalkState
from errdex.facts import Factory, MadeError

_MAX_MADE = 4  # returns kept per function


class FactoryRecorder:
    """The functions of a file whose returns are all exceptions they make."""

    def __init__(self, state: WalkState) -> None:
        self.state = state
        self._made: dict[str, list[MadeError]] = {}
        self._params: dict[str, tuple[str, ...]] = {}
        self._other: set[str] = set()  # functions that return anything else

    def returned(self, stmt: ast.Return, scope: Scope) -> None:
        """A `return` of a function: an exception it makes, or anything else."""
        qualname = scope.qualname
        if qualname in self._other:
            return
        call = self._made_call(stmt.value, scope, stmt.lineno)
        if call is None:
            self._other.add(qualname)
            self._made.pop(qualname, None)
            return
        node = self._message(call)
        made = MadeError(
            exception=self.state.source(call.func),
            message=self.state.template(node, scope) if node is not None else None,
            args=self.state.args(call, scope),
        )
        found = self._made.setdefault(qualname, [])
        self._params[qualname] = scope.params
        if made not in found and len(found) < _MAX_MADE:
            found.append(made)

    def made(self) -> int:
        """How many functions are recorded so far (the keys of `factories`, in order)."""
        return len(self._made)

    def factories(self) -> dict[str, Factory]:
        return {q: Factory(self._params[q], tuple(made)) for q, made in self._made.items()}

    def _message(self, call: ast.Call) -> ast.expr | None:
        """The argument that is the text (`InvalidMetadata(self.raw_name, msg.format_map(
        ...))`: the second), else the first one given (`message_arg`)."""
        for arg in (*call.args, *(k.value for k in call.keywords)):
            if self.state.stringy(arg) or (
                isinstance(arg, ast.Name | ast.Call | ast.BinOp)
                and formatted_name(self.state.source(arg)) is not None
            ):
                return arg
            if isinstance(arg, ast.Name) and arg.id in MESSAGE_PARAMS:
                return arg
        return message_arg(call)

    def _made_call(self, value: ast.expr | None, scope: Scope, line: int) -> ast.Call | None:
        """The class call `value` is, or a local holds that surely ran (`exc = X(...)` ...
        `return exc`); None for anything else."""
        if isinstance(value, ast.Name):
            assigned = self.state.last_assignment(value.id, scope, line)
            value = assigned[1] if assigned is not None else None
        if not isinstance(value, ast.Call):
            return None
        callee = (
            dotted_name(value.func) if isinstance(value.func, ast.Name | ast.Attribute) else None
        )
        if callee is None or not callee.rpartition(".")[2][:1].isupper():
            return None
        return value
