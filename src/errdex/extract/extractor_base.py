"""The extractor's shared part: the facts it collects, and what every part of the walk asks.

A node's source text (remembered per node), the conditions and names of a path, and the
message template or call arguments an expression makes. The walk itself (`sites.py`) and
the parts that record sites, locals, calls and definitions build on this class.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping
from typing import Any

from errdex.extract.conditions import ConditionMaker, dotted_names
from errdex.extract.scope import Scope, Step, message_locals
from errdex.extract.shapes import is_stringy
from errdex.extract.templates import TemplateBuilder, source_of
from errdex.facts import (
    Arg,
    CallFact,
    CallSite,
    ClassFact,
    Condition,
    ConditionKind,
    ErrorSite,
    HelperFact,
    KeyedHelper,
    MessageTemplate,
    PropertyFact,
    ReasonsList,
    TestRef,
)


def _memoized_source(text: str, known: dict[int, tuple[ast.AST, str]], node: ast.AST) -> str:
    """`source_of(text, node)`, remembered: tests, handlers' types and assigned values are
    asked for again and again. Keyed by identity, with the node kept alongside so that its
    id cannot be reused meanwhile."""
    found = known.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    source = source_of(text, node)
    known[id(node)] = (node, source)
    return source


class ExtractorBase:
    """The fact lists of one file, and the source, conditions and templates of its nodes."""

    def __init__(
        self, text: str, constants: dict[str, Any], imports: Mapping[str, str] | None = None
    ) -> None:
        self.text = text
        self.constants = constants
        self.imports: Mapping[str, str] = imports or {}  # local name → imported dotted target
        # Plain functions and dicts, not bound methods: no reference cycle through `self`,
        # so a file's tree is freed as soon as its extraction ends, without the cyclic GC.
        self._sources: dict[int, tuple[ast.AST, str]] = {}
        self._source = functools.partial(_memoized_source, text, self._sources)
        self._conditions = ConditionMaker(self._source)
        self.sites: list[ErrorSite] = []
        self.classes: list[ClassFact] = []
        self.helpers: list[HelperFact] = []
        self.keyed: list[KeyedHelper] = []
        self._keyed_lookups: bool | None = None  # whether the text has `self.messages[k]`
        self.calls: list[CallFact] = []
        self.reason_builders: dict[str, ReasonsList] = {}
        self._pending_calls: list[tuple[CallSite, tuple[Step, ...]]] = []
        self.properties: list[PropertyFact] = []
        self.defs: list[str] = []
        self.returns: dict[str, str] = {}  # function qualname → the class its return is
        self.params: dict[str, dict[str, str]] = {}  # method qualname → parameter → class
        # (qualname, class) of every function by its `def` line: whose the calls read from
        # a blanked body's text are.
        self.functions_at: dict[int, tuple[str, str | None]] = {}
        # The path that holds after each function's body, by its `def` line: the guard of a
        # call in the straight code of a tail the skeleton blanked.
        self._after_body: dict[int, tuple[Step, ...]] = {}
        self.tests: list[TestRef] = []
        self._blocks: tuple[int, ...] = ()  # the nested blocks being walked, innermost last
        self._block_counter = 0

    # -- paths -----------------------------------------------------------------------------

    def _step(self, test: ast.expr, kind: ConditionKind, *, holds: bool = True) -> Step:
        return Step(test, kind, holds=holds)

    def _condition(self, step: Step) -> Condition:
        if step._condition is None:
            node = step.node
            make_text = self._conditions.make_text
            if isinstance(node, ast.For | ast.AsyncFor):
                header = f"for {self._source(node.target)} in {self._source(node.iter)}"
                step._condition = make_text(header, step.kind, node.lineno)
            elif isinstance(node, ast.ExceptHandler):
                caught = f" {self._source(node.type)}" if node.type is not None else ""
                named = f" as {node.name}" if node.name else ""
                step._condition = make_text(f"except{caught}{named}", step.kind, node.lineno)
            elif isinstance(node, ast.pattern):
                assert step.subject is not None
                text = f"{self._source(step.subject)} matches {self._source(node)}"
                step._condition = make_text(text, step.kind, node.lineno)
            else:
                assert isinstance(node, ast.expr)
                step._condition = self._conditions.make(node, step.kind, holds=step.holds)
        return step._condition

    def _names(self, step: Step) -> tuple[str, ...]:
        if step._names is None:
            node = step.node
            if isinstance(node, ast.For | ast.AsyncFor):
                node = node.iter
            elif isinstance(node, ast.ExceptHandler):
                node = node.type if node.type is not None else ast.Pass()
            elif isinstance(node, ast.pattern):
                node = step.subject or ast.Pass()
            step._names = tuple(dotted_names(node))
        return step._names

    def _conditions_of(self, path: tuple[Step, ...]) -> tuple[Condition, ...]:
        return tuple(self._condition(step) for step in path)

    def guard_after(self, def_line: int) -> tuple[Condition, ...] | None:
        """What holds after the parsed body of the function whose `def` is on `def_line`
        (its early exits), or None when no function's is."""
        path = self._after_body.get(def_line)
        return None if path is None else self._conditions_of(path)

    # -- messages and arguments ------------------------------------------------------------

    def _stringy(self, node: ast.expr) -> bool:
        return is_stringy(node, self.constants)

    def _template(self, node: ast.expr | None, scope: Scope) -> MessageTemplate | None:
        if node is None:
            return None
        return self._builder(scope).build(node)

    def _builder(self, scope: Scope) -> TemplateBuilder:
        return TemplateBuilder(
            self.text, constants=self.constants, locals=message_locals(scope, self._blocks)
        )

    def _args(self, call: ast.Call, scope: Scope) -> tuple[Arg, ...]:
        builder = self._builder(scope)  # one for all arguments: nothing changes in between
        out = [Arg(builder.build(a), self._source(a)) for a in call.args]
        out.extend(
            Arg(builder.build(k.value), self._source(k.value), name=k.arg)
            for k in call.keywords
            if k.arg is not None
        )
        return tuple(out)
