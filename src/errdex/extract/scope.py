"""The walker's state: the function being walked and the conditions of the current path."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import NamedTuple

import msgspec

from errdex.facts import (
    Condition,
    ConditionKind,
    ErrorSite,
    MessageTemplate,
    ReasonsCall,
    ReasonsList,
    Variant,
)

# The nested blocks a statement is in, innermost last, each numbered once per file.
Blocks = tuple[int, ...]


class Reasons(msgspec.Struct):
    variants: list[Variant] = msgspec.field(default_factory=list)
    # Each helper call is made into a `ReasonsCall` only when the list is used: most lists
    # assigned a call's result (`x = f(...)`) never are, and a call's guard is costly.
    calls: list[Callable[[], ReasonsCall]] = msgspec.field(default_factory=list)

    def freeze(self) -> ReasonsList:
        return ReasonsList(tuple(self.variants), tuple(make() for make in self.calls))


class Assignment(NamedTuple):
    """One assignment of a local, or a parameter's binding (`value` None)."""

    line: int
    value: ast.expr | None
    blocks: tuple[int, ...]  # the blocks it is in
    path: tuple[Step, ...]  # the path that leads to it
    template: MessageTemplate | None = None  # the value's, when it is text
    # The texts a lookup or a choice may give it, each with the step that picks it
    # (`held_messages`): `msgs.get(name, "...")`, `"a" if test else "b"`.
    held: tuple[tuple[MessageTemplate, Step | None], ...] = ()


class Scope(msgspec.Struct):
    qualname: str  # "<module>", "Class", "Class.method", "f.<locals>.g"
    class_name: str | None
    is_function: bool
    params: tuple[str, ...] = ()
    arguments: ast.arguments | None = None  # a function's, for `literal_defaults`
    body: list[ast.stmt] = msgspec.field(default_factory=list)  # a function's statements
    # Message variables: name → what it holds, as (template, the blocks where it holds),
    # outermost first. A statement reads the deepest whose blocks enclose its own: text added
    # inside an `if` is there for a raise in that `if`, and may be absent after it.
    messages: dict[str, list[tuple[MessageTemplate, Blocks]]] = msgspec.field(default_factory=dict)
    lists: dict[str, Reasons] = msgspec.field(default_factory=dict)
    # Every assignment of each name, in order. Source is taken lazily.
    assigns: dict[str, list[Assignment]] = msgspec.field(default_factory=dict)
    # Every assignment of each `self.X`, in order: the value only when it is one comparison
    # (`self.native = backend in NATIVE`), None otherwise (another value, an unpacking, `+=`).
    own_tests: dict[str, list[Assignment | None]] = msgspec.field(default_factory=dict)
    # Each `if` with an `else`, and the blocks it is in: a name every branch of one assigns
    # loses the values it had before (`branches_assign`, asked only for a chosen message).
    branchings: list[tuple[ast.If, tuple[int, ...]]] = msgspec.field(default_factory=list)
    # Names added to with `+=`: their values are no longer whole messages.
    augmented: set[str] = msgspec.field(default_factory=set)
    returned: Reasons | None = None
    # name → the class annotated for it, as written (parameters, `x: Foo = ...`)
    types: dict[str, str] = msgspec.field(default_factory=dict)
    # a local an `assert isinstance(x, Foo)` narrows → (the class as written, the blocks
    # the assert is in): what a call's argument read of it is (`CallSite.typed`)
    narrowed: dict[str, tuple[str, tuple[int, ...]]] = msgspec.field(default_factory=dict)
    outer: Scope | None = None  # the function this one is nested in: its names are seen
    handlers: list[tuple[str | None, str | None]] = msgspec.field(default_factory=list)
    # Its raises and warnings: what makes it a raising (or warning) helper.
    signals: list[ErrorSite] = msgspec.field(default_factory=list)


class Step:
    """A condition on the current path, made into a `Condition` only when a site needs it.

    Most tests guard no site at all, so their source text, negation and names are worked
    out lazily and once.
    """

    __slots__ = ("_condition", "_names", "holds", "kind", "node", "subject")

    def __init__(
        self,
        node: ast.AST,
        kind: ConditionKind,
        *,
        holds: bool = True,
        subject: ast.expr | None = None,
        condition: Condition | None = None,
    ) -> None:
        self.node = node
        self.kind = kind
        self.holds = holds
        self.subject = subject  # the match statement's subject, for case patterns
        # Given when the condition is no test of the source (`a or b` of an elif chain).
        self._condition = condition
        self._names: tuple[str, ...] | None = None


def literal_defaults(scope: Scope) -> dict[str, str]:
    """The function's parameters whose default is a literal (`code=None`), with its source:
    what a helper's guard reads when a call leaves them out. Worked out only for helpers."""
    args = scope.arguments
    if args is None:
        return {}
    positional = [*args.posonlyargs, *args.args]
    pairs = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    return {
        param.arg: repr(default.value)
        for param, default in pairs
        if isinstance(default, ast.Constant)
        and isinstance(default.value, bool | int | float | str | None)
    }


def message_locals(scope: Scope, here: tuple[int, ...]) -> dict[str, MessageTemplate]:
    """Message variables whose assignment encloses the current block (so it surely ran)."""
    out: dict[str, MessageTemplate] = {}
    for name, values in scope.messages.items():
        for template, where in values:  # outermost first: the deepest that encloses wins
            if here[: len(where)] == where:
                out[name] = template
    return out
