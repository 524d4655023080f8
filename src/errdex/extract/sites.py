"""Walk a module's statements and record its error sites with the path that leads to each.

The walker dispatches on statement kind (as pyflakes does). It carries the conditions of the
current path (if/elif/else, earlier early exits, loops, except clauses, match cases) down
into blocks, and per function the local facts a site needs: messages built in a variable
first, reasons lists, and the last assignment of each name.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from errdex.extract.calls import call_target, expected_errors, is_property, property_fact
from errdex.extract.conditions import ConditionMaker, dotted_name, dotted_names, walk
from errdex.extract.scope import Reasons, Scope, Step, message_locals
from errdex.extract.shapes import (
    EXIT_FUNCS,
    JOIN,
    NOT_HELPERS,
    WARN_FUNCS,
    always_exits,
    is_factory,
    is_reasons_call,
    is_stringy,
    keyword,
    level_from_first_arg,
    log_level,
    message_arg,
    receiver,
)
from errdex.extract.templates import TemplateBuilder, line_span, source_of
from errdex.facts import (
    Arg,
    Binding,
    CallFact,
    CallSite,
    ClassFact,
    Condition,
    ConditionKind,
    ErrorSite,
    HelperFact,
    MessageTemplate,
    Placeholder,
    PropertyFact,
    ReasonsCall,
    ReasonsList,
    SiteKind,
    TestRef,
    Variant,
)

# Dataclasses whose fields are command-line flags (`EngineArgs`, `TrainingArguments`).
_ARGS_CLASS = re.compile(r"(?:Args|Arguments|CLIOptions)$")


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


class SiteExtractor:
    """Collects sites, classes, raising helpers, message-like calls and reason builders."""

    def __init__(self, text: str, constants: dict[str, Any]) -> None:
        self.text = text
        self.constants = constants
        # Plain functions and dicts, not bound methods: no reference cycle through `self`,
        # so a file's tree is freed as soon as its extraction ends, without the cyclic GC.
        self._sources: dict[int, tuple[ast.AST, str]] = {}
        self._source = functools.partial(_memoized_source, text, self._sources)
        self._conditions = ConditionMaker(self._source)
        self.sites: list[ErrorSite] = []
        self.classes: list[ClassFact] = []
        self.helpers: list[HelperFact] = []
        self.calls: list[CallFact] = []
        self.reason_builders: dict[str, ReasonsList] = {}
        self._pending_calls: list[tuple[CallSite, tuple[Step, ...]]] = []
        self.properties: list[PropertyFact] = []
        self.defs: list[str] = []
        self.tests: list[TestRef] = []
        self._blocks: tuple[int, ...] = ()  # the nested blocks being walked, innermost last
        self._block_counter = 0

    # -- walking ---------------------------------------------------------------------------

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
        return []

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
        params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
        if scope.class_name is not None and not scope.is_function and params:
            params = params[1:] if params[0] in ("self", "cls") else params
        inner = Scope(qualname, scope.class_name, is_function=True, params=params)
        if scope.qualname == "<module>":
            self.defs.append(stmt.name)
        elif scope.class_name is not None and not scope.is_function and is_property(stmt):
            self.properties.append(property_fact(stmt, qualname))
        for name in params:
            inner.assigns.setdefault(name, []).append((stmt.lineno, None, ()))
        blocks, self._blocks = self._blocks, ()
        try:
            self._body(stmt.body, inner, ())
        finally:
            self._blocks = blocks
        if inner.returned is not None and (inner.returned.variants or inner.returned.calls):
            self.reason_builders[qualname] = inner.returned.freeze()
        self._find_helper(stmt, inner)

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

    # -- sites -----------------------------------------------------------------------------

    def _Raise(self, stmt: ast.Raise, scope: Scope, path: tuple[Step, ...]) -> None:
        kind = SiteKind.RAISE
        exception: str | None = None
        message: MessageTemplate | None = None
        args: tuple[Arg, ...] = ()
        exc = stmt.exc
        if exc is None:
            kind = SiteKind.RERAISE
            exception = scope.handlers[-1][0] if scope.handlers else None
        elif isinstance(exc, ast.Call) and is_factory(exc):
            # `raise _format(GatedRepoError, message, response)`: a function building the
            # exception from its class and a message.
            exception = self._source(exc.args[0])
            rest = [a for a in exc.args[1:] if self._stringy(a) or isinstance(a, ast.Name)]
            message = self._template(rest[0], scope) if rest else None
        elif isinstance(exc, ast.Call):
            exception = self._source(exc.func)
            message_node = message_arg(exc)
            if message_node is not None:
                message = self._template(message_node, scope)
            args = self._args(exc, scope)
        elif isinstance(exc, ast.Name) and any(name == exc.id for _, name in scope.handlers):
            kind = SiteKind.RERAISE
            exception = next(c for c, name in reversed(scope.handlers) if name == exc.id)
        else:
            exception = self._source(exc)
        cause = self._source(stmt.cause) if stmt.cause is not None else None
        site = self._site(stmt, scope, path, kind, exception, message, args=args, cause=cause)
        scope.raises.append(site)

    def _Assert(self, stmt: ast.Assert, scope: Scope, path: tuple[Step, ...]) -> None:
        message = self._template(stmt.msg, scope) if stmt.msg is not None else None
        step = self._step(stmt.test, ConditionKind.ASSERT, holds=False)
        self._site(stmt, scope, (*path, step), SiteKind.ASSERT, "AssertionError", message)

    def _Expr(self, stmt: ast.Expr, scope: Scope, path: tuple[Step, ...]) -> None:
        value = stmt.value
        if isinstance(value, ast.Await):
            value = value.value
            if isinstance(value, ast.Call):
                self._note_call(stmt, value, scope, path)
        elif isinstance(value, ast.Call):
            self._call(stmt, value, scope, path)

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

    def call_sites(self, keep: Callable[[CallSite], bool]) -> tuple[CallSite, ...]:
        """The recorded calls that `keep` accepts, each with its guard (worked out now)."""
        return tuple(
            msgspec.structs.replace(call, conditions=self._conditions_of(path))
            for call, path in self._pending_calls
            if keep(call)
        )

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
            if isinstance(target, ast.Name) and target.id in scope.lists:
                self._list_call(func.attr, call, scope.lists[target.id], scope, path)
                return
        self._helper_candidate(stmt, call, func, scope, path)

    def _warn(self, stmt: ast.stmt, call: ast.Call, scope: Scope, path: tuple[Step, ...]) -> None:
        node = call.args[0] if call.args else keyword(call, "message")
        category = call.args[1] if len(call.args) > 1 else keyword(call, "category")
        message = self._template(node, scope) if node is not None else None
        exception = self._source(category) if category is not None else "UserWarning"
        self._site(stmt, scope, path, SiteKind.WARN, exception, message)

    def _log(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        scope: Scope,
        path: tuple[Step, ...],
        level: str,
    ) -> None:
        args = call.args[1:] if level_from_first_arg(call) else call.args
        node = args[0] if args else keyword(call, "msg")
        message: MessageTemplate | None = None
        if node is not None:
            rest = [a for a in args[1:] if not isinstance(a, ast.Starred)]
            if rest and isinstance(node, ast.Constant) and isinstance(node.value, str):
                message = TemplateBuilder(
                    self.text, constants=self.constants, locals=message_locals(scope, self._blocks)
                ).percent(node, rest)
            else:
                message = self._template(node, scope)
        self._site(stmt, scope, path, SiteKind.LOG, None, message, level=level)

    def _site(
        self,
        stmt: ast.stmt,
        scope: Scope,
        path: tuple[Step, ...],
        kind: SiteKind,
        exception: str | None,
        message: MessageTemplate | None,
        *,
        args: tuple[Arg, ...] = (),
        cause: str | None = None,
        level: str | None = None,
    ) -> ErrorSite:
        names = tuple(dict.fromkeys(n for step in path for n in self._names(step)))
        reasons, reasons_expr = self._reasons_for(message, scope)
        site = ErrorSite(
            kind=kind,
            exception=exception,
            message=message,
            line=stmt.lineno,
            end_line=stmt.end_lineno or stmt.lineno,
            function=scope.qualname,
            class_name=scope.class_name,
            conditions=self._conditions_of(path),
            bindings=self._bindings(names, scope, stmt.lineno),
            cause=cause,
            level=level,
            args=args,
            reasons=reasons,
            reasons_expr=reasons_expr,
            names=names,
        )
        self.sites.append(site)
        return site

    def _reasons_for(
        self, message: MessageTemplate | None, scope: Scope
    ) -> tuple[ReasonsList | None, str | None]:
        if message is None or not scope.lists:
            return None, None
        for placeholder in message.placeholders:
            match = JOIN.search(placeholder.expr)
            name = match.group(1) if match else placeholder.expr
            if name in scope.lists:
                return scope.lists[name].freeze(), placeholder.expr
        return None, None

    def _bindings(self, names: tuple[str, ...], scope: Scope, line: int) -> tuple[Binding, ...]:
        out: list[Binding] = []
        seen: set[str] = set()
        for dotted in names:
            root = dotted.split(".")[0]
            if root in seen or root in ("self", "cls"):
                continue
            seen.add(root)
            # Only assignments that surely ran: in a block that encloses the site.
            here = self._blocks
            earlier = [
                a for a in scope.assigns.get(root, ()) if a[0] <= line and here[: len(a[2])] == a[2]
            ]
            if earlier and earlier[-1][1] is not None:
                value = self._source(earlier[-1][1])
                out.append(Binding(name=root, value=value, line=earlier[-1][0]))
        return tuple(out)

    # -- locals: messages in variables, reasons lists, assignments -------------------------

    def _Assign(self, stmt: ast.Assign, scope: Scope, path: tuple[Step, ...]) -> None:
        if len(stmt.targets) == 1:
            self._assign(stmt.targets[0], stmt.value, stmt, scope, path)
        if isinstance(stmt.value, ast.Call):
            self._call(stmt, stmt.value, scope, path)
        elif isinstance(stmt.value, ast.Await) and isinstance(stmt.value.value, ast.Call):
            self._note_call(stmt, stmt.value.value, scope, path)

    def _AnnAssign(self, stmt: ast.AnnAssign, scope: Scope, path: tuple[Step, ...]) -> None:
        if stmt.value is not None:
            self._assign(stmt.target, stmt.value, stmt, scope, path)
            if isinstance(stmt.value, ast.Call):
                self._note_call(stmt, stmt.value, scope, path)

    def _assign(
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
        scope.assigns.setdefault(name, []).append((stmt.lineno, value, self._blocks))
        scope.messages.pop(name, None)
        scope.lists.pop(name, None)
        if isinstance(value, ast.List):
            items = self._list_items(value.elts, scope, path)
            if items or not value.elts:
                scope.lists[name] = Reasons(variants=items)
        elif isinstance(value, ast.Call) and is_reasons_call(value):
            callee = value.func
            assert isinstance(callee, ast.Attribute | ast.Name)
            scope.lists[name] = Reasons(calls=[functools.partial(self._reasons_call, value, path)])
        elif self._stringy(value):
            template = self._template(value, scope)
            if template is not None:
                scope.messages[name] = (template, self._blocks)

    def _AugAssign(self, stmt: ast.AugAssign, scope: Scope, path: tuple[Step, ...]) -> None:
        target = stmt.target
        if not isinstance(target, ast.Name) or not isinstance(stmt.op, ast.Add):
            return
        name = target.id
        if name in scope.messages:
            template, blocks = scope.messages[name]
            here = self._blocks
            if here == blocks:
                addition = self._template(stmt.value, scope) or MessageTemplate()
            elif here[: len(blocks)] == blocks:
                # Added under a condition: the text may be absent, so keep it open.
                addition = MessageTemplate.of(Placeholder(self._source(stmt.value)))
            else:
                del scope.messages[name]  # changed in a branch the site may not follow
                return
            scope.messages[name] = (template + addition, blocks)
        elif name in scope.lists and isinstance(stmt.value, ast.List):
            scope.lists[name].variants.extend(self._list_items(stmt.value.elts, scope, path))

    def _list_call(
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
            reasons.variants.extend(self._list_items([arg], scope, path))
        elif method == "extend":
            if isinstance(arg, ast.List | ast.Tuple):
                reasons.variants.extend(self._list_items(arg.elts, scope, path))
            elif isinstance(arg, ast.Call) and is_reasons_call(arg):
                reasons.calls.append(functools.partial(self._reasons_call, arg, path))

    def _list_items(
        self, items: Sequence[ast.expr], scope: Scope, path: tuple[Step, ...]
    ) -> list[Variant]:
        out = []
        for item in items:
            if not self._stringy(item):
                continue
            template = self._template(item, scope)
            if template is not None and template.literal_length:
                out.append(
                    Variant(
                        reason=template,
                        line=item.lineno,
                        function=scope.qualname,
                        conditions=self._conditions_of(path),
                    )
                )
        return out

    def _reasons_call(self, call: ast.Call, path: tuple[Step, ...]) -> ReasonsCall:
        func = call.func
        if isinstance(func, ast.Attribute):
            return ReasonsCall(
                callee=func.attr,
                receiver=self._source(func.value),
                line=call.lineno,
                conditions=self._conditions_of(path),
            )
        assert isinstance(func, ast.Name)
        return ReasonsCall(func.id, None, call.lineno, self._conditions_of(path))

    # -- raising helpers, their calls, and classes -----------------------------------------

    def _helper_candidate(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        func: ast.Name | ast.Attribute,
        scope: Scope,
        path: tuple[Step, ...],
    ) -> None:
        callee = func.attr if isinstance(func, ast.Attribute) else func.id
        if callee in NOT_HELPERS or not any(self._stringy(a) for a in call.args):
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
            )
        )

    def _find_helper(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        """A function whose raise takes its message from a parameter is a raising helper."""
        seen: set[str] = set()
        for site in scope.raises:
            if site.message is None or site.kind is not SiteKind.RAISE:
                continue
            for placeholder in site.message.placeholders:
                expr = placeholder.expr
                param = expr[4:-1] if expr.startswith("str(") else expr
                if param not in scope.params or site.message.text in seen:
                    continue
                seen.add(site.message.text)
                self.helpers.append(
                    HelperFact(
                        name=stmt.name,
                        qualname=scope.qualname,
                        line=site.line,
                        params=scope.params,
                        param=param,
                        exception=site.exception,
                        message=site.message,
                        conditions=site.conditions,
                    )
                )
                break

    def _class_fact(self, stmt: ast.ClassDef, qualname: str) -> ClassFact:
        init_params: tuple[str, ...] = ()
        message: MessageTemplate | None = None
        for item in stmt.body:
            if not isinstance(item, ast.FunctionDef) or item.name not in ("__init__", "__str__"):
                continue
            params = tuple(a.arg for a in (*item.args.args[1:], *item.args.kwonlyargs))
            if item.name == "__init__":
                init_params = params
            found = self._message_in(item, init_params or params)
            if found is not None and (message is None or item.name == "__init__"):
                message = found
        methods = tuple(
            item.name
            for item in stmt.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        fields: dict[str, str] = {}
        if _ARGS_CLASS.search(stmt.name):
            for item in stmt.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    fields[item.target.id] = self._source(item.annotation)[:80]
        return ClassFact(
            name=stmt.name,
            qualname=qualname,
            line=stmt.lineno,
            bases=tuple(self._source(b) for b in stmt.bases),
            docstring=ast.get_docstring(stmt),
            init_params=init_params,
            message=message,
            methods=methods,
            fields=fields,
        )

    def _message_in(self, func: ast.FunctionDef, params: tuple[str, ...]) -> MessageTemplate | None:
        """The message `__init__` passes up (or stores, or `__str__` returns), over params."""
        scope = Scope(func.name, None, is_function=True, params=params)
        # In `__init__` only statements with the words looked for are walked (`__str__`
        # counts every `return`).
        keep = self._may_pass_message if func.name == "__init__" else None
        for node in walk(func, keep):
            value: ast.expr | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "__init__" and node.args:
                    first = node.args[0]
                    is_self = isinstance(first, ast.Name) and first.id == "self"
                    value = node.args[1] if is_self and len(node.args) > 1 else first
                    if is_self and len(node.args) == 1:
                        value = None
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Attribute) and target.attr in ("message", "msg"):
                    value = node.value
            elif isinstance(node, ast.Return) and func.name == "__str__":
                value = node.value
            if value is not None and self._stringy(value):
                return self._template(value, scope)
        return None

    def _may_pass_message(self, node: ast.AST) -> bool:
        """Whether `node` (in `__init__`) may hold what `_message_in` looks for.

        Walking a long `__init__` costs; the text of a statement is scanned far faster.
        Every name in a statement's tree is written on its lines (the skeleton only blanks
        lines), so a call of `.__init__` needs `__init__` there, and a `.message` or `.msg`
        target that word. Identifiers are NFKC-normalized: text not ASCII is walked anyway.
        """
        if not isinstance(node, ast.stmt):
            return True
        decorators = getattr(node, "decorator_list", ())  # they are above a `def`'s line
        first = min((d.lineno for d in decorators), default=node.lineno)
        text = line_span(self.text, first, node.end_lineno or node.lineno)
        return not text.isascii() or "__init__" in text or "msg" in text or "message" in text

    # -- helpers ---------------------------------------------------------------------------

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


# Statement type → its handler (`_If` for `ast.If`), looked up once rather than by name per
# statement.
_HANDLERS: dict[type[ast.AST], Callable[..., tuple[Step, ...] | None]] = {
    node_type: handler
    for node_type in vars(ast).values()
    if isinstance(node_type, type) and issubclass(node_type, ast.stmt) and node_type is not ast.stmt
    if (handler := getattr(SiteExtractor, "_" + node_type.__name__, None)) is not None
}
