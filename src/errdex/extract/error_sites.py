"""Error sites: a raise, an assert, a warning, an exit or a log call, recorded with the
conditions of its path, the assignments of the names those conditions read, and the reasons
list its message joins.
"""

from __future__ import annotations

import ast

from errdex.extract.conditions import dotted_name, walk
from errdex.extract.held_messages import prose
from errdex.extract.scope import Assignment, Scope, Step, literal_defaults, message_locals
from errdex.extract.shapes import (
    BUILTIN_NAMES,
    JOIN,
    MESSAGE_MEMBER,
    branches_assign,
    formatted_name,
    is_factory,
    is_none,
    keyword,
    level_from_first_arg,
    message_arg,
    raised_call,
)
from errdex.extract.templates import TemplateBuilder
from errdex.extract.truthy import truthy_arguments
from errdex.extract.walk_state import WalkState
from errdex.facts import (
    Arg,
    Binding,
    ConditionKind,
    ErrorSite,
    MessageTemplate,
    Placeholder,
    ReasonsList,
    SiteKind,
)


class SiteRecorder:
    """Records the error sites of `raise`, `assert`, and warning, exit and log calls."""

    def __init__(self, state: WalkState) -> None:
        self.state = state
        self.sites: list[ErrorSite] = []

    def raised(self, stmt: ast.Raise, scope: Scope, path: tuple[Step, ...]) -> None:
        kind = SiteKind.RAISE
        exception: str | None = None
        message: MessageTemplate | None = None
        args: tuple[Arg, ...] = ()
        exc = raised_call(stmt.exc) if stmt.exc is not None else None
        if isinstance(exc, ast.Name) and not any(exc.id == name for _, name in scope.handlers):
            exc = self._made_before(exc.id, scope, stmt.lineno) or exc
        if exc is None:
            kind = SiteKind.RERAISE
            exception = scope.handlers[-1][0] if scope.handlers else None
        elif isinstance(exc, ast.Call) and is_factory(exc):
            # `raise _format(GatedRepoError, message, response)`: a function building the
            # exception from its class and a message.
            exception = self.state.source(exc.args[0])
            rest = [a for a in exc.args[1:] if self.state.stringy(a) or isinstance(a, ast.Name)]
            message = self.state.template(rest[0], scope) if rest else None
        elif isinstance(exc, ast.Call):
            exception = self.state.source(exc.func)
            message_node = message_arg(exc)
            args = self.state.args(exc, scope)
            if message_node is not None:
                chosen = self._chosen(message_node, scope, stmt.lineno, path)
                if chosen:  # a site per message that branches chose
                    cause = self.state.source(stmt.cause) if stmt.cause is not None else None
                    for template, steps in chosen:
                        # (each path holds the tests that chose the local's value, made
                        # before the assignment on purpose: they all stand)
                        site = self.site(
                            stmt,
                            scope,
                            steps,
                            kind,
                            exception,
                            template,
                            args=args,
                            cause=cause,
                            standing=False,
                        )
                        scope.signals.append(site)
                    return
                message = self.state.template(message_node, scope)
        elif isinstance(exc, ast.Name) and any(name == exc.id for _, name in scope.handlers):
            kind = SiteKind.RERAISE
            exception = next(c for c, name in reversed(scope.handlers) if name == exc.id)
        elif isinstance(exc, ast.Name) and self._is_variable(exc.id, scope):
            # `raise result`: an exception object, whose class only a test may tell.
            exception = self._narrowed(exc.id, path)
        else:
            exception = self.state.source(exc)
        cause = self.state.source(stmt.cause) if stmt.cause is not None else None
        site = self.site(stmt, scope, path, kind, exception, message, args=args, cause=cause)
        scope.signals.append(site)

    def chosen_argument(
        self, call: ast.Call, scope: Scope, line: int, path: tuple[Step, ...]
    ) -> tuple[int, list[tuple[MessageTemplate, tuple[Step, ...]]]] | None:
        """The first argument of a call that is a local holding one of several messages
        (as a raise's is, `_chosen`): its position among the recorded arguments (the
        positional ones, then the named), and each message with its path."""
        named = [k.value for k in call.keywords if k.arg is not None]
        for at, arg in enumerate((*call.args, *named)):
            if isinstance(arg, ast.Name) and _may_choose(arg.id, scope):
                chosen = self._chosen(arg, scope, line, path)
                if chosen:
                    return at, chosen
        return None

    def _chosen(
        self, node: ast.expr, scope: Scope, line: int, path: tuple[Step, ...]
    ) -> list[tuple[MessageTemplate, tuple[Step, ...]]]:
        """The messages of a raise whose message (`node`) uses a local that branches before
        it chose, one per value, each with the path of the raise and of the branch that
        assigned it: `if ...: hint = "..." elif ...: hint = "..." else: ...`, or a default (a
        value that surely ran, or the parameter's own) that an `if` may replace, whether
        raised as it is or formatted (`hint % {...}`). Empty when no local it uses has more
        than one value at the raise, none of which reads as a message, or when one was added
        to (`+=`)."""
        assigns = scope.assigns
        names = [n.id for n in walk(node) if isinstance(n, ast.Name) and n.id in assigns]
        head = _format_head(node)
        for name in dict.fromkeys(names):
            if not _may_choose(name, scope, head):
                continue
            values = self._values(name, scope, line, self.state.blocks, path)
            # A parameter formatted on one path (`if args: msg = msg.format(*args)`) makes a
            # helper of another shape on each: its callers' texts are formatted on one.
            formatted = name in scope.params and any(
                _formats_param(template, name) for template, _ in values
            )
            # A lookup's default alone is the one text a user sees unless the code was
            # given its own (`msgs.get(name, "...")`), as `self.message or "..."` is.
            looked_up = name == head and any(a.held for a in assigns[name])
            if (len(values) > 1 or looked_up) and (formatted or any(prose(t) for t, _ in values)):
                return self._built(node, name, values, message_locals(scope, self.state.blocks))
        return []

    def _values(
        self, name: str, scope: Scope, line: int, here: tuple[int, ...], path: tuple[Step, ...]
    ) -> list[tuple[MessageTemplate, tuple[Step, ...]]]:
        """Each value `name` may hold at `line` in the blocks `here` with the path `path` (see
        `_chosen`), each with that path and the branch's; none when it was added to."""
        if name in scope.augmented:
            return []
        found: list[Assignment] = []
        # An `if`/`else` before `line` whose every branch assigns the name replaces the
        # values assigned before it.
        replaced = max(
            (
                branching.lineno
                for branching, blocks in scope.branchings
                if (branching.end_lineno or branching.lineno) < line
                and here[: len(blocks)] == blocks
                and name in branches_assign(branching)
            ),
            default=0,
        )
        for choice in reversed(scope.assigns.get(name, ())):
            if choice.line > line:
                continue
            if choice.line < replaced:
                break
            if is_none(choice.value) and any(name in self.state.names(step) for step in path):
                continue  # `if why is not None: raise X(f"... {why}")`: never its None
            found.append(choice)
            if here[: len(choice.blocks)] == choice.blocks:
                break  # it surely ran: every value assigned before it is replaced by it
        found.reverse()
        # The branch of each value, beyond the raise's path; a later value replaces it when
        # its branch is taken, so it is raised when that branch's one test fails.
        branches = [choice.path[_shared(path, choice.path) :] for choice in found]
        # Each message once: one that several branches give has the raise's own path.
        out: dict[MessageTemplate, tuple[Step, ...]] = {}
        for i, choice in enumerate(found):
            kept = [
                _negated(later.path[-1])
                for later, branch in zip(found[i + 1 :], branches[i + 1 :], strict=True)
                if len(branch) == 1 and not _exclusive(choice.path, later.path)
            ]
            for template, steps in self._choice_values(name, choice, scope):
                if template in out:
                    out[template] = path
                else:
                    out[template] = (*path, *branches[i], *filter(None, kept), *steps)
        return list(out.items())

    def _choice_values(
        self, name: str, choice: Assignment, scope: Scope
    ) -> list[tuple[MessageTemplate, tuple[Step, ...]]]:
        """What one assignment gives `name`, with the steps beyond its own path: its text; or
        the earlier values formatted, when it formats the name itself (`msg = msg % {...}`);
        else the name (`{hint}`), as a parameter's own value is."""
        if choice.template is not None:
            return [(choice.template, ())]
        if choice.held:
            return [(text, () if step is None else (step,)) for text, step in choice.held]
        value = choice.value
        own = MessageTemplate.of(Placeholder(name))
        if value is not None and _formats(value, name):
            earlier = self._values(name, scope, choice.line - 1, choice.blocks, choice.path)
            if earlier:
                deeper = [(t, steps[len(choice.path) :]) for t, steps in earlier]
                out: list[tuple[MessageTemplate, tuple[Step, ...]]] = []
                for template, steps in deeper:
                    if template == own and name in scope.params:
                        # The parameter's text is the caller's: the formatting stays an
                        # expression of it (`{msg.format(*args)}`), applied at each call.
                        kept = MessageTemplate.of(Placeholder(self.state.source(value)))
                        out.append((kept, steps))
                    else:
                        out.extend(self._built(value, name, [(template, steps)], {}))
                return out
        return [(own, ())]

    def _built(
        self,
        node: ast.expr,
        name: str,
        values: list[tuple[MessageTemplate, tuple[Step, ...]]],
        known: dict[str, MessageTemplate],
    ) -> list[tuple[MessageTemplate, tuple[Step, ...]]]:
        """`node`'s template for each value of the local `name`, with its steps."""
        out = []
        for template, steps in values:
            builder = TemplateBuilder(
                self.state.text,
                constants=self.state.constants,
                locals={**known, name: template},
                source_of=self.state.source,
            )
            message = builder.build(node)
            if message is not None:
                out.append((message, steps))
        return out

    def _is_variable(self, name: str, scope: Scope) -> bool:
        """Whether a raised name holds an exception object rather than naming a class: a
        local, or a name in lower case (`exc`, `result`) that no import binds."""
        if name in scope.assigns:
            return True
        return name[:1].islower() and name not in self.state.imports and name not in BUILTIN_NAMES

    def _narrowed(self, name: str, path: tuple[Step, ...]) -> str | None:
        """The class an `isinstance(name, X)` test on the path says the object is."""
        for step in reversed(path):
            test = step.node
            if (
                step.holds
                and isinstance(test, ast.Call)
                and isinstance(test.func, ast.Name)
                and test.func.id == "isinstance"
                and len(test.args) == 2
                and isinstance(test.args[0], ast.Name)
                and test.args[0].id == name
            ):
                return self.state.source(test.args[1])
        return None

    def _made_before(self, name: str, scope: Scope, line: int) -> ast.Call | None:
        """The exception a local was made as, when that surely ran before the raise:
        `exc = ValidationError(errors, data=data)` ... `raise exc`."""
        assigned = self.state.last_assignment(name, scope, line)
        made = assigned[1] if assigned is not None else None
        if isinstance(made, ast.Call) and (callee := dotted_name(made.func)) is not None:
            return made if callee.rpartition(".")[2][:1].isupper() else None
        return None

    def asserted(self, stmt: ast.Assert, scope: Scope, path: tuple[Step, ...]) -> None:
        step = Step(stmt.test, ConditionKind.ASSERT, holds=False)
        for message, steps, standing in self._messages(stmt.msg, scope, stmt.lineno, path):
            site_path = (*steps, step)
            kind = SiteKind.ASSERT
            self.site(stmt, scope, site_path, kind, "AssertionError", message, standing=standing)

    def warned(self, stmt: ast.stmt, call: ast.Call, scope: Scope, path: tuple[Step, ...]) -> None:
        node = call.args[0] if call.args else keyword(call, "message")
        category = call.args[1] if len(call.args) > 1 else keyword(call, "category")
        exception = self.state.source(category) if category is not None else "UserWarning"
        for message, steps, standing in self._messages(node, scope, stmt.lineno, path):
            kind = SiteKind.WARN
            site = self.site(stmt, scope, steps, kind, exception, message, standing=standing)
            scope.signals.append(site)

    def _messages(
        self, node: ast.expr | None, scope: Scope, line: int, path: tuple[Step, ...]
    ) -> list[tuple[MessageTemplate | None, tuple[Step, ...], bool]]:
        """The messages of a site whose message is `node`: one per text a local it uses
        holds (`_chosen`), each with its path and not standing (the tests that chose the
        local's value stand, made before its assignment on purpose); else its one template
        on `path`, standing."""
        if node is None:
            return [(None, path, True)]
        # (a literal, most messages, uses no local)
        chosen = (
            self._chosen(node, scope, line, path)
            if scope.assigns and not isinstance(node, ast.Constant)
            else []
        )
        if chosen:
            return [(template, steps, False) for template, steps in chosen]
        return [(self.state.template(node, scope), path, True)]

    def exited(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        scope: Scope,
        path: tuple[Step, ...],
        printer: str | None = None,
    ) -> None:
        """`sys.exit("message")`, an argument parser's `parser.error("message")`: the text
        is printed and the process exits."""
        message = self.state.template(call.args[0], scope)
        self.site(stmt, scope, path, SiteKind.EXIT, "SystemExit", message, printer=printer)

    def logged(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        scope: Scope,
        path: tuple[Step, ...],
        level: str,
    ) -> None:
        args = call.args[1:] if level_from_first_arg(call) else call.args
        node = args[0] if args else keyword(call, "msg")
        rest = [a for a in args[1:] if not isinstance(a, ast.Starred)]
        if rest and isinstance(node, ast.Constant) and isinstance(node.value, str):
            formatted = self.state.builder(scope).percent(node, rest)
            self.site(stmt, scope, path, SiteKind.LOG, None, formatted, level=level)
            return
        for message, steps, standing in self._messages(node, scope, stmt.lineno, path):
            kind = SiteKind.LOG
            self.site(stmt, scope, steps, kind, None, message, level=level, standing=standing)

    def site(
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
        printer: str | None = None,
        standing: bool = True,
    ) -> ErrorSite:
        """The site of `stmt` on `path`; with `standing`, without the tests that an
        assignment after them may have made stale (`WalkState.standing_conditions`)."""
        names = self.state.names_of(path)
        held = self._member_locals(message, scope, stmt.lineno)
        reasons, reasons_expr = self._reasons_for(message, scope)
        site = ErrorSite(
            kind=kind,
            exception=exception,
            message=message,
            line=stmt.lineno,
            end_line=stmt.end_lineno or stmt.lineno,
            function=scope.qualname,
            class_name=scope.class_name,
            conditions=self.state.standing_conditions(path, scope, stmt.lineno)
            if standing
            else self.state.conditions_of(path),
            bindings=self.state.bindings_of((*names, *held), scope, stmt.lineno, own=True)
            + _enclosing_defaults(message, args, scope),
            cause=cause,
            level=level,
            printer=printer,
            args=args,
            reasons=reasons,
            reasons_expr=reasons_expr,
            names=names,
            truthy=truthy_arguments(args, scope, self.state.blocks, stmt.lineno, path),
        )
        self.sites.append(site)
        return site

    def _member_locals(
        self, message: MessageTemplate | None, scope: Scope, line: int
    ) -> tuple[str, ...]:
        """The locals of the message that hold a message member of the object (`message =
        self.message or self.default_message`), or what a call returned (`msg =
        alg.check_key_length(key)`): the linker reads the object, or the function, for
        them."""
        if message is None:
            return ()
        roots = {p.expr.split(" ")[0].split(".")[0] for p in message.placeholders}
        held = []
        for name in roots & scope.assigns.keys():
            assigned = self.state.last_assignment(name, scope, line)
            if assigned is None:
                continue
            value = assigned[1]
            if isinstance(value, ast.Call) or MESSAGE_MEMBER.search(self.state.source(value)):
                held.append(name)
        return tuple(sorted(held))

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


def _shared(path: tuple[Step, ...], other: tuple[Step, ...]) -> int:
    """How many steps the two paths share from their start."""
    shared = 0
    while shared < min(len(path), len(other)) and path[shared] is other[shared]:
        shared += 1
    return shared


def _exclusive(path: tuple[Step, ...], other: tuple[Step, ...]) -> bool:
    """Whether the two paths part at one test, taken one way and the other (`if`/`else`)."""
    at = _shared(path, other)
    return (
        at < min(len(path), len(other))
        and path[at].node is other[at].node
        and path[at].holds != other[at].holds
    )


def _negated(step: Step) -> Step | None:
    """The step that holds when `step`'s test fails, for an `if`'s own test."""
    if step.kind in (ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE):
        return Step(step.node, step.kind, holds=not step.holds)
    return None


def _may_choose(name: str, scope: Scope, head: str | None = None) -> bool:
    """Whether the local `name` may hold more than one message at a use (`_chosen`): it is
    assigned twice or more, never added to, and one assignment is text or formats it; or,
    it is assigned a choice of texts (`Assignment.held`), or a lookup's default where it is
    the message's text itself (`head`, see `_format_head`): the default is no value a
    message shows (`f"no {mode}"` of `mode = cfg.get("mode", "no mode")`). Most names a
    call passes are not; asking this first spares working out their values."""
    assigned = scope.assigns.get(name, ())
    if name in scope.augmented:
        return False
    if any(a.held and (name == head or len(a.held) > 1) for a in assigned):
        return True
    if len(assigned) < 2:
        return False
    return any(
        a.template is not None or (a.value is not None and _formats(a.value, name))
        for a in assigned
    )


def _enclosing_defaults(
    message: MessageTemplate | None, args: tuple[Arg, ...], scope: Scope
) -> tuple[Binding, ...]:
    """The names the message or the exception's arguments read that are parameters of an
    enclosing function with a literal default (a decorator's `status_code=403`, read by
    its wrapper's `raise HTTPException(status_code=status_code)`)."""
    outer = scope.outer
    if outer is None:
        return ()
    read = {a.source for a in args if a.source.isidentifier()}
    if message is not None:
        read.update(p.expr for p in message.placeholders if p.expr.isidentifier())
    read -= set(scope.params) | scope.assigns.keys()
    found: list[Binding] = []
    while outer is not None and read:
        defaults = literal_defaults(outer)
        for name in sorted(read & defaults.keys()):
            found.append(Binding(name=name, value=defaults[name], line=0, origin="default"))
        read -= set(outer.params) | outer.assigns.keys()
        outer = outer.outer
    return tuple(found)


def _formats_param(template: MessageTemplate, name: str) -> bool:
    """Whether the template is the parameter `name` formatted (`{name.format(...)}`,
    `{name % ...}`)."""
    only = template.parts[0] if len(template.parts) == 1 else None
    return isinstance(only, Placeholder) and formatted_name(only.expr) == name


def _format_head(node: ast.expr) -> str | None:
    """The local a message is the text of: `msg`, `msg % (...)`, `msg.format(...)`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        node = node.func.value
    return node.id if isinstance(node, ast.Name) else None


def _formats(value: ast.expr, name: str) -> bool:
    """Whether `value` formats the text the local `name` holds: `name % ...`,
    `name.format(...)`, or an f-string or `+` that uses it."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mod | ast.Add):
        return any(isinstance(n, ast.Name) and n.id == name for n in (value.left, value.right))
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        receiver = value.func.value
        return (
            value.func.attr == "format" and isinstance(receiver, ast.Name) and receiver.id == name
        )
    if isinstance(value, ast.JoinedStr):
        return any(isinstance(n, ast.Name) and n.id == name for n in walk(value))
    return False
