"""Assignments in a function: the last value of each name, messages built in a variable
(`msg = ...`, `msg += ...`), and reasons lists filled by literals, `+=`, `.append` and
`.extend`. What it learns lives in the function's `Scope`, where the other recorders read it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Sequence

from errdex.extract.held_messages import Held, held_messages
from errdex.extract.scope import Assignment, Reasons, Scope, Step, message_locals
from errdex.extract.shapes import and_parts, is_none, is_reasons_call
from errdex.extract.walk_state import WalkState
from errdex.facts import ConditionKind, MessageTemplate, Placeholder, ReasonsCall, Variant


class AssignmentRecorder:
    """Keeps a function's local facts up to date as its assignments are walked."""

    def __init__(self, state: WalkState) -> None:
        self.state = state

    def assigned(
        self,
        target: ast.expr,
        value: ast.expr,
        stmt: ast.stmt,
        scope: Scope,
        path: tuple[Step, ...],
    ) -> None:
        if not isinstance(target, ast.Name) or not scope.is_function:
            return
        name = target.id
        scope.messages.pop(name, None)
        scope.lists.pop(name, None)
        template = None
        held: Held = ()
        kind_of = type(value)
        if (
            kind_of is ast.IfExp
            or kind_of is ast.Subscript
            or (kind_of is ast.Call and getattr(value.func, "attr", None) == "get")  # type: ignore[attr-defined]
        ):
            held = held_messages(value, scope, self.state.builder, self.state.constants)
        if held:
            pass  # texts, not a list (`msgs.get(name, "...")` is no helper's reasons)
        elif isinstance(value, ast.List):
            items = self.list_items(value.elts, scope, path)
            if items or not value.elts:
                scope.lists[name] = Reasons(variants=items)
        elif isinstance(value, ast.ListComp):
            pairs = self.flagged_items(value, scope, path)
            if pairs:
                scope.lists[name] = Reasons(variants=pairs)
        elif (
            isinstance(value, ast.Call) and is_reasons_call(value) and not self.state.stringy(value)
        ):
            # (`msg = _("...")` is text, not a call that may build a reasons list)
            callee = value.func
            assert isinstance(callee, ast.Attribute | ast.Name)
            scope.lists[name] = Reasons(calls=[functools.partial(self._reasons_call, value, path)])
        elif self.state.stringy(value):
            template = self.state.template(value, scope)
            if template is not None:
                scope.messages[name] = [(template, self.state.blocks)]
        scope.assigns.setdefault(name, []).append(
            Assignment(stmt.lineno, value, self.state.blocks, path, template, held)
        )

    def tested(self, test: ast.expr, scope: Scope, path: tuple[Step, ...]) -> None:
        """The names an `if` test binds to texts, for its body, where the binding surely ran:
        `if isinstance(task, str) and (msg := MESSAGES.get(task)):` (the test itself, an
        operand of its `and`, or one compared `is not None`). Other bindings in a test are
        left to the conditions that read them."""
        if not scope.is_function:
            return
        operands = and_parts(test)
        for node in operands:
            if (
                isinstance(node, ast.Compare)
                and len(node.ops) == 1
                and isinstance(node.ops[0], ast.IsNot)
                and is_none(node.comparators[0])
            ):
                node = node.left
            if not isinstance(node, ast.NamedExpr):
                continue
            held = held_messages(node.value, scope, self.state.builder, self.state.constants)
            if held:
                name = node.target.id
                scope.messages.pop(name, None)
                scope.lists.pop(name, None)
                scope.assigns.setdefault(name, []).append(
                    Assignment(node.lineno, node.value, self.state.blocks, path, None, held)
                )

    def own_assigned(
        self,
        targets: list[ast.expr],
        value: ast.expr | None,
        stmt: ast.stmt,
        scope: Scope,
        path: tuple[Step, ...],
    ) -> None:
        """Note each `self.X` among `targets` (unpacked ones too), with `value` when it is the
        one target and one comparison: `self.native = backend in NATIVE`."""
        for target in targets:
            for node in ast.walk(target) if isinstance(target, ast.Tuple | ast.List) else [target]:
                if not (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "self"
                ):
                    continue
                test = value if node is target and _one_comparison(value) else None
                found = Assignment(stmt.lineno, test, self.state.blocks, path) if test else None
                scope.own_tests.setdefault(f"self.{node.attr}", []).append(found)

    def augmented(self, stmt: ast.AugAssign, scope: Scope, path: tuple[Step, ...]) -> None:
        target = stmt.target
        if not isinstance(target, ast.Name) or not isinstance(stmt.op, ast.Add):
            return
        name = target.id
        if self._adds_to_chosen(name, stmt, scope):
            # `if argname: msg = "..." else: msg = "..."` then `if advice: msg += " " +
            # advice`: an assignment `msg = msg + ...`, so each text chosen before is raised
            # with the addition and without (`SiteRecorder._values`).
            plus = ast.BinOp(ast.Name(name, ast.Load()), ast.Add(), stmt.value)
            plus = ast.copy_location(plus, stmt)
            scope.assigns[name].append(Assignment(stmt.lineno, plus, self.state.blocks, path))
        else:
            scope.augmented.add(name)
        values = scope.messages.get(name)
        if values is not None:
            here = self.state.blocks
            enclosing = [
                (template, blocks) for template, blocks in values if here[: len(blocks)] == blocks
            ]
            if not enclosing:
                del scope.messages[name]  # changed in a branch the site may not follow
                return
            added = self.state.template(stmt.value, scope) or MessageTemplate()
            outer = [(template, blocks) for template, blocks in enclosing if blocks != here]
            if outer:  # outside this block the addition may be absent: there it stays open
                maybe = MessageTemplate.of(Placeholder(self.state.source(stmt.value)))
                outer = [(template + maybe, blocks) for template, blocks in outer]
            scope.messages[name] = [*outer, (enclosing[-1][0] + added, here)]
        elif name in scope.lists and isinstance(stmt.value, ast.List):
            scope.lists[name].variants.extend(self.list_items(stmt.value.elts, scope, path))

    def _adds_to_chosen(self, name: str, stmt: ast.AugAssign, scope: Scope) -> bool:
        """Whether `name += text` adds to a message that branches chose (two texts or more
        assigned, one in a branch apart), never added to in another way before. (Where one
        surely ran, the addition to it is kept as well, for the sites in between.)"""
        if name in scope.augmented or not self.state.stringy(stmt.value):
            return False
        texts = [a for a in scope.assigns.get(name, ()) if a.template is not None]
        here = self.state.blocks
        # (texts assigned one after the other, each surely run here, are one text)
        return len(texts) >= 2 and any(here[: len(a.blocks)] != a.blocks for a in texts)

    def returned(self, value: ast.expr, scope: Scope, path: tuple[Step, ...]) -> None:
        """`return reasons` or `return [...]`: the function builds a reasons list."""
        if isinstance(value, ast.Name) and value.id in scope.lists:
            returned = scope.returned or Reasons()
            found = scope.lists[value.id]
            returned.variants.extend(found.variants)
            returned.calls.extend(found.calls)
            scope.returned = returned
        elif isinstance(value, ast.List) and value.elts:
            reasons = self.list_items(value.elts, scope, path)
            if reasons:
                scope.returned = scope.returned or Reasons()
                scope.returned.variants.extend(reasons)

    def list_call(
        self,
        method: str,
        call: ast.Call,
        reasons: Reasons,
        scope: Scope,
        path: tuple[Step, ...],
    ) -> None:
        if not call.args:
            return
        arg = call.args[0]
        if method == "append":
            reasons.variants.extend(self.list_items([arg], scope, path))
        elif method == "extend":
            if isinstance(arg, ast.List | ast.Tuple):
                reasons.variants.extend(self.list_items(arg.elts, scope, path))
            elif isinstance(arg, ast.Call) and is_reasons_call(arg):
                reasons.calls.append(functools.partial(self._reasons_call, arg, path))

    def list_items(
        self, items: Sequence[ast.expr], scope: Scope, path: tuple[Step, ...]
    ) -> list[Variant]:
        out = []
        built = message_locals(scope, self.state.blocks)
        for item in items:
            # a text, or a message built first (`msg = "... %s" % (la,)`, then appended)
            if not self.state.stringy(item) and not (
                isinstance(item, ast.Name) and item.id in built
            ):
                continue
            template = self.state.template(item, scope)
            if template is not None and template.literal_length:
                out.append(
                    Variant(
                        reason=template,
                        line=item.lineno,
                        function=scope.qualname,
                        conditions=self.state.conditions_of(path),
                    )
                )
        return out

    def flagged_items(
        self, comprehension: ast.ListComp, scope: Scope, path: tuple[Step, ...]
    ) -> list[Variant]:
        """`[name for name, enabled in (("EPLB", cfg.enable_eplb), ...) if enabled]`: each
        pair's text is a reason, added when its own expression is true."""
        if len(comprehension.generators) != 1 or not isinstance(comprehension.elt, ast.Name):
            return []
        loop = comprehension.generators[0]
        target, pairs = loop.target, loop.iter
        if not (
            isinstance(target, ast.Tuple)
            and len(target.elts) == 2
            and all(isinstance(t, ast.Name) for t in target.elts)
            and isinstance(pairs, ast.Tuple | ast.List)
            and len(loop.ifs) == 1
            and isinstance(loop.ifs[0], ast.Name)
        ):
            return []
        names = [t.id for t in target.elts if isinstance(t, ast.Name)]
        flag = loop.ifs[0].id
        if comprehension.elt.id not in names or flag not in names or flag == comprehension.elt.id:
            return []
        text_at = names.index(comprehension.elt.id)
        out = []
        outer = self.state.conditions_of(path)
        for pair in pairs.elts:
            if not (isinstance(pair, ast.Tuple) and len(pair.elts) == 2):
                return []  # not a table of literal pairs
            text, enabled = pair.elts[text_at], pair.elts[1 - text_at]
            template = self.state.template(text, scope) if self.state.stringy(text) else None
            if template is None or not template.literal_length:
                return []
            added = self.state.conditions.make(enabled, ConditionKind.IF)
            out.append(
                Variant(
                    reason=template,
                    line=text.lineno,
                    function=scope.qualname,
                    conditions=(*outer, added),
                )
            )
        return out

    def _reasons_call(self, call: ast.Call, path: tuple[Step, ...]) -> ReasonsCall:
        func = call.func
        if isinstance(func, ast.Attribute):
            return ReasonsCall(
                callee=func.attr,
                receiver=self.state.source(func.value),
                line=call.lineno,
                conditions=self.state.conditions_of(path),
            )
        assert isinstance(func, ast.Name)
        return ReasonsCall(func.id, None, call.lineno, self.state.conditions_of(path))


def _one_comparison(value: ast.expr | None) -> bool:
    """`a == b`, `a != b`, `a in b`, `a not in b`: a test whose outcome one value decides."""
    return (
        isinstance(value, ast.Compare)
        and len(value.ops) == 1
        and isinstance(value.ops[0], ast.Eq | ast.NotEq | ast.In | ast.NotIn)
    )
