"""What every recorder reads while the walker walks one file: the source text of its nodes,
the blocks being walked, the conditions a path's steps make, and the message template or
call arguments an expression makes.

The walker owns one `WalkState` per file and hands it to each recorder when it makes them;
the function being walked (`Scope`) and the path to the current statement travel with each
event instead, since they change at every block.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping
from typing import Any

from errdex.extract.conditions import ConditionMaker, dotted_names
from errdex.extract.loop_exits import no_match_condition
from errdex.extract.scope import Scope, Step, message_locals
from errdex.extract.shapes import OWN_OBJECT, is_stringy
from errdex.extract.source_text import source_of
from errdex.extract.templates import TemplateBuilder
from errdex.extract.value_reads import parses_alone, value_read
from errdex.facts import Arg, Binding, Condition, ConditionKind, MessageTemplate, ValueRead

_LOOPS = (ast.For, ast.AsyncFor)  # made once, not a union at each test


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


class WalkState:
    """One file's text, constants and imports, and where in its blocks the walk is."""

    def __init__(
        self, text: str, constants: dict[str, Any], imports: Mapping[str, str] | None = None
    ) -> None:
        self.text = text
        self.constants = constants
        self.imports: Mapping[str, str] = imports or {}  # local name → imported dotted target
        # A plain function over a dict, not a bound method: nothing the recorders keep
        # refers back to this object, so a file's tree is freed as soon as its extraction
        # ends, without the cyclic GC.
        self.source = functools.partial(_memoized_source, text, {})
        self.conditions = ConditionMaker(self.source)
        self._names_of_values: dict[int, tuple[ast.expr, tuple[str, ...]]] = {}
        # what the values bound to locals read, by their source (`extract.value_reads`)
        self.value_reads: dict[str, ValueRead] = {}
        # The nested blocks being walked, innermost last: a value assigned in a block
        # surely ran for a statement whose blocks start with that block's.
        self.blocks: tuple[int, ...] = ()
        self._block_counter = 0

    def open_block(self) -> tuple[int, ...]:
        """Enter a nested block (an `if`'s body, a loop's, a handler's); return the blocks to
        restore when it ends."""
        self._block_counter += 1
        outer = self.blocks
        self.blocks = (*outer, self._block_counter)
        return outer

    # -- paths -----------------------------------------------------------------------------

    def condition(self, step: Step) -> Condition:
        """The condition a step makes, worked out once."""
        if step._condition is None:
            node = step.node
            make_text = self.conditions.make_text
            if step.kind is ConditionKind.NO_MATCH:
                assert isinstance(node, _LOOPS)
                step._condition = no_match_condition(node, self.source)
            elif isinstance(node, _LOOPS):
                header = f"for {self.source(node.target)} in {self.source(node.iter)}"
                step._condition = make_text(header, step.kind, node.lineno)
            elif isinstance(node, ast.ExceptHandler):
                caught = f" {self.source(node.type)}" if node.type is not None else ""
                named = f" as {node.name}" if node.name else ""
                step._condition = make_text(f"except{caught}{named}", step.kind, node.lineno)
            elif isinstance(node, ast.pattern):
                assert step.subject is not None
                text = f"{self.source(step.subject)} matches {self.source(node)}"
                step._condition = make_text(text, step.kind, node.lineno)
            else:
                assert isinstance(node, ast.expr)
                step._condition = self.conditions.make(node, step.kind, holds=step.holds)
        return step._condition

    def names(self, step: Step) -> tuple[str, ...]:
        """The names and attribute chains a step's test reads, worked out once."""
        if step._names is None:
            node = step.node
            if isinstance(node, _LOOPS):
                node = node.iter
            elif isinstance(node, ast.ExceptHandler):
                node = node.type if node.type is not None else ast.Pass()
            elif isinstance(node, ast.pattern):
                node = step.subject or ast.Pass()
            step._names = tuple(dotted_names(node))
        return step._names

    def conditions_of(self, path: tuple[Step, ...]) -> tuple[Condition, ...]:
        return tuple(self.condition(step) for step in path)

    def standing_conditions(
        self, path: tuple[Step, ...], scope: Scope, line: int
    ) -> tuple[Condition, ...]:
        """The conditions of `path`, less each test that a later test on the path makes
        again (or its opposite) after an assignment in between changed a local it reads
        (`if frame is not None:`, then `frame = frame.f_back` in a loop, then `assert frame
        is not None`): side by side the two read as a contradiction, and only the later one
        is about the value at `line`. An assignment in the other branch of an `if` on the
        path comes between neither."""
        if not scope.assigns or len(path) < 2:
            return self.conditions_of(path)
        return tuple(
            self.condition(step)
            for at, step in enumerate(path)
            if not self._superseded(at, path, scope, line)
        )

    def _superseded(self, at: int, path: tuple[Step, ...], scope: Scope, line: int) -> bool:
        node = path[at].node
        # (a loop's iteration, a handler, a pattern test no value; a test made up of others,
        # `a or b` of an `elif` chain, has no line)
        end = getattr(node, "end_lineno", None) if isinstance(node, ast.expr) else None
        if end is None:
            return False
        # The first assignment after the test, before `line`, to a local it reads: most
        # tests have none, and their text is never asked for.
        first = min(
            (
                assigned.line
                for root in {n.split(".")[0] for n in self.names(path[at])}
                for assigned in scope.assigns.get(root, ())
                if end < assigned.line < line and not _exclusive(assigned.path, path)
            ),
            default=None,
        )
        if first is None:
            return False
        test = _bare_test(self.source(node))
        for later in path[at + 1 :]:
            start = getattr(later.node, "lineno", None)
            if (
                start is not None
                and start > first
                and isinstance(later.node, ast.expr)
                and _bare_test(self.source(later.node)) == test
            ):
                return True
        return False

    def names_of(self, path: tuple[Step, ...]) -> tuple[str, ...]:
        """The names and attribute chains the tests of a path read, in order."""
        if len(path) < 2:  # (a step's names are told once each: nothing to merge)
            return self.names(path[0]) if path else ()
        return tuple(dict.fromkeys(n for step in path for n in self.names(step)))

    def bindings_of(
        self, names: tuple[str, ...], scope: Scope, line: int, *, own: bool = False
    ) -> tuple[Binding, ...]:
        """What the locals among `names` were last assigned before `line`; with `own`, also
        a `self.X` the function set once, before, to a comparison (`own_test`)."""
        out: list[Binding] = []
        seen: set[str] = set()
        # the locals the conditions read, then those their values read (one level more:
        # `capability = capability_tuple.to_int()` after `capability_tuple = ...`)
        for depth in range(2):
            found: list[Binding] = []
            values: list[ast.expr] = []  # the value of each found
            for dotted in names:
                root = dotted.split(".")[0]
                if own and depth == 0 and dotted not in seen and dotted in scope.own_tests:
                    seen.add(dotted)
                    test = self.own_test(dotted, scope, line)
                    if test is not None:
                        found.append(Binding(name=dotted, value=self.bound(test[1]), line=test[0]))
                        values.append(test[1])
                    continue
                if root in seen or root in OWN_OBJECT:
                    continue
                seen.add(root)
                assigned = self.last_assignment(root, scope, line)
                if assigned is not None:
                    value = assigned[1]
                    found.append(Binding(name=root, value=self.bound(value), line=assigned[0]))
                    values.append(value)
            out.extend(found)
            if depth == 0 and found:
                names = tuple(dict.fromkeys(n for v in values for n in self._value_names(v)))
        return tuple(out)

    def bound(self, value: ast.expr) -> str:
        """The source of a value a binding holds, with what it reads noted where parsing
        that source gives the value again (`value_reads`)."""
        text = self.source(value)
        if text not in self.value_reads and parses_alone(value):
            self.value_reads[text] = ValueRead(*value_read(value, text, self._value_names(value)))
        return text

    def _value_names(self, value: ast.expr) -> tuple[str, ...]:
        """`dotted_names(value)` of an assigned value, worked out once: the sites of a
        function read the same locals again and again. Kept as `_memoized_source` keeps
        sources, the node alongside."""
        found = self._names_of_values.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        names = tuple(dotted_names(value))
        self._names_of_values[id(value)] = (value, names)
        return names

    def own_test(self, dotted: str, scope: Scope, line: int) -> tuple[int, ast.expr] | None:
        """(line, value) of `self.X` when the function assigns it once, a comparison, in a
        block enclosing `line` and before it: then the site reads that value (the linker
        keeps it only where a setting decides it)."""
        assigned = scope.own_tests.get(dotted, ())
        if len(assigned) != 1 or assigned[0] is None:
            return None
        only = assigned[0]
        if only.line >= line or self.blocks[: len(only.blocks)] != only.blocks:
            return None
        assert only.value is not None
        return only.line, only.value

    def last_assignment(self, name: str, scope: Scope, line: int) -> tuple[int, ast.expr] | None:
        """(line, value) of the last assignment of `name` that surely ran before `line`: in a
        block enclosing the current one. None when it is a parameter's, or there is none."""
        here = self.blocks
        for assigned in reversed(scope.assigns.get(name, ())):
            if assigned.line <= line and here[: len(assigned.blocks)] == assigned.blocks:
                value = assigned.value
                return (assigned.line, value) if value is not None else None
        return None

    # -- messages and arguments ------------------------------------------------------------

    def stringy(self, node: ast.expr) -> bool:
        return is_stringy(node, self.constants)

    def template(self, node: ast.expr | None, scope: Scope) -> MessageTemplate | None:
        """The message `node` makes, with the scope's messages built before it inlined."""
        if node is None:
            return None
        return self.builder(scope).build(node)

    def builder(self, scope: Scope) -> TemplateBuilder:
        return TemplateBuilder(
            self.text,
            constants=self.constants,
            locals=message_locals(scope, self.blocks),
            source_of=self.source,
        )

    def args(self, call: ast.Call, scope: Scope) -> tuple[Arg, ...]:
        builder = self.builder(scope)  # one for all arguments: nothing changes in between
        out = [Arg(builder.build(a), self.source(a)) for a in call.args]
        out.extend(
            Arg(builder.build(k.value), self.source(k.value), name=k.arg)
            for k in call.keywords
            if k.arg is not None
        )
        return tuple(out)


def _exclusive(one: tuple[Step, ...], other: tuple[Step, ...]) -> bool:
    """Whether two paths part at one test, one taking it and the other not (the two
    branches of an `if`, or an `if` and its `elif`): neither runs after the other."""
    for first, second in zip(one, other, strict=False):
        if first is second:
            continue
        return first.node is second.node and first.holds != second.holds
    return False


def _bare_test(source: str) -> str:
    """A test's text without its negation, `is not` read as `is` and `!=` as `==`: a test
    and its opposite read alike."""
    text = " ".join(source.split())
    while text.startswith("not "):
        text = text[4:].strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text.replace(" is not ", " is ").replace(" != ", " == ").replace(" not in ", " in ")
