"""The calls a file makes: each call that may be of the codebase's own function (for its
callers), each candidate call of a raising helper (a call passing text or a message
parameter on), and the tests that expect an error.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import msgspec

from errdex.extract.calls import call_target, expected_errors
from errdex.extract.conditions import NAME_OR_ATTRIBUTE, dotted_name
from errdex.extract.scope import Scope, Step, literal_defaults
from errdex.extract.shapes import (
    MESSAGE_PARAMS,
    NOT_HELPERS,
    OWN_OBJECT,
    SUPER,
    and_parts,
    call_shape,
    copied_chain,
    is_stringy,
    isinstance_test,
    names_imported_constant,
    receiver,
)
from errdex.extract.walk_state import WalkState
from errdex.facts import Binding, CallFact, CallSite, Condition, MessageTemplate, TestRef

_KEY_READS = (ast.Call, ast.Subscript, ast.IfExp)  # arguments that may read one key of a dict
_MAX_HELD_HOPS = 2  # locals followed back to the dict a passed key is read of
MAX_PASSED = 24  # arguments of one call read for `CallSite.passes` (and of a blanked call)
# An argument (its position among a call's recorded arguments) and the messages a local
# passed in it may hold, each with its path.
Chosen = tuple[int, list[tuple[MessageTemplate, tuple[Step, ...]]]]


class CallRecorder:
    """Keeps the calls made, and the tests that expect an error."""

    def __init__(self, state: WalkState) -> None:
        self.state = state
        self.calls: list[CallFact] = []
        self.tests: list[TestRef] = []
        # Each call with its path and scope: its guard is worked out only for the calls kept.
        self._pending: list[tuple[CallSite, tuple[Step, ...], Scope]] = []
        # names a function imports itself (`CallRecorder.imported_here`) → (the relative
        # level, the module as written, the name imported); None where two imports differ
        self.local_imports: dict[str, tuple[int, str | None, str] | None] = {}
        self._params_of: dict[int, tuple[Scope, list[str]]] = {}  # see `_own_params`
        self.callbacks: list[CallSite] = []  # see `handed_on`

    def expecting(self, stmt: ast.With | ast.AsyncWith, scope: Scope) -> None:
        """A `with` in a function: `pytest.raises(X, match=...)` and the like."""
        if scope.is_function:
            self.tests.extend(expected_errors(stmt, scope.qualname))

    def noted(self, stmt: ast.stmt, call: ast.Call, scope: Scope, path: tuple[Step, ...]) -> None:
        """Record a call that may be of the codebase's own function (for its callers)."""
        if scope.is_function and (call.args or call.keywords):
            self.handed_on(stmt, call, scope)
        target = call_target(call) or own_attribute_target(call)
        if target is None:
            return
        callee, receiver = target
        passes = self._passes(call, scope, stmt.lineno)
        if passes:
            site = CallSite(
                callee,
                receiver,
                stmt.lineno,
                scope.qualname,
                scope.class_name,
                passes=passes,
                typed=self._typed(passes, scope, path, stmt.lineno),
                receiver_type=self._object_class(call, receiver, scope, path, stmt.lineno),
            )
        elif receiver is not None and "." in receiver:
            return  # `self.x.f()` giving no name: no value of the caller's to follow
        else:
            site = CallSite(callee, receiver, stmt.lineno, scope.qualname, scope.class_name)
        bound = self._bound(callee, receiver, scope, stmt.lineno)
        if not bound:
            self._pending.append((site, path, scope))
        for method, owner in bound:
            # `read_fn = self.read_joint if joint else self.read; read_fn(...)`: a call of
            # each method the local may hold, as `self.read(...)` is
            self._pending.append(
                (msgspec.structs.replace(site, callee=method, receiver=owner), path, scope)
            )

    def handed_on(self, stmt: ast.stmt, call: ast.Call, scope: Scope) -> None:
        """The bound methods a call is handed as arguments, not called (`FileFacts.
        callbacks`): `Handler(partial(gen.generate_schema, ...), gen)` hands on the method
        of a local whose class the code says (`gen = GenerateSchema(...)`), `register(
        self._build)` one of the object's own; the callee calls them back, so for the walk
        down from a class-creation hook they are calls of this function. One level into a
        `partial(...)` among the arguments."""
        for arg in _handed_arguments(call):
            if not (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)):
                continue
            owner, method = arg.value.id, arg.attr
            if method.startswith("__"):
                continue
            written = None
            if owner not in OWN_OBJECT:
                # a module's function (`_validators.pattern_validator`) is handed on to be
                # called when the user's data comes, not while the callee runs: only an
                # object's methods, of a class the code says
                written = _receiver_type(arg, scope)
                if written is None or (written.endswith(")") and not written.endswith("()")):
                    continue  # no class said, or a parameter no annotation names
            self.callbacks.append(
                CallSite(
                    method,
                    owner,
                    stmt.lineno,
                    scope.qualname,
                    scope.class_name,
                    receiver_type=written,
                )
            )

    def narrowed(self, test: ast.expr, scope: Scope) -> None:
        """`assert isinstance(request, Body)`: the local is of that class from here on, in
        the blocks the assert is in (`CallSite.typed`)."""
        found = isinstance_test(test)
        local, cls = found if found is not None else (None, None)
        if not isinstance(local, ast.Name):
            return
        written = dotted_name(cls) if isinstance(cls, NAME_OR_ATTRIBUTE) else None
        if written is not None:
            scope.narrowed[local.id] = (written, self.state.blocks)

    def _typed(
        self,
        passes: tuple[tuple[str, str, int], ...],
        scope: Scope,
        path: tuple[Step, ...],
        line: int,
    ) -> tuple[tuple[str, str], ...]:
        """The class the code says each object is whose attribute an argument gives
        (`request` of `request.input_type`, `ctx.request` of `ctx.request.kind`): its
        annotation, an `assert isinstance` before
        the call in a block around it, or an `isinstance` test the call's guard holds true
        of it or of what the local surely holds (`if isinstance(ctx.request, Body):
        request = ctx.request`)."""
        out: list[tuple[str, str]] = []
        for _, value, _ in passes:
            held, dot, _ = value.rpartition(".")
            root = held.partition(".")[0]
            if not dot or root in OWN_OBJECT or not root.isidentifier() or "(" in held:
                continue
            written = scope.types.get(held)
            if written is None and held in scope.narrowed:
                cls, blocks = scope.narrowed[held]
                if self.state.blocks[: len(blocks)] == blocks:
                    written = cls
            if written is None and path:
                written = self._guarded_class(held, scope, path, line)
            if written is not None and (held, written) not in out:
                out.append((held, written))
        return tuple(out)

    def _object_class(
        self, call: ast.Call, receiver: str | None, scope: Scope, path: tuple[Step, ...], line: int
    ) -> str | None:
        """What the code says a local or a parameter a method is called on is
        (`CallSite.receiver_type`): an `isinstance` held true of it (an `assert` before the
        call, or the call's guard), else its annotation or the call that made it."""
        if receiver is None or "." in receiver or receiver in OWN_OBJECT or receiver == SUPER:
            return None
        if receiver in scope.narrowed:
            cls, blocks = scope.narrowed[receiver]
            if self.state.blocks[: len(blocks)] == blocks:
                return cls
        guarded = self._guarded_class(receiver, scope, path, line) if path else None
        if guarded is not None:
            return guarded
        func = call.func
        written = _receiver_type(func, scope) if isinstance(func, ast.Attribute) else None
        if written is not None and written.endswith(")") and not written.endswith("()"):
            return None  # a parameter no annotation names: no word on it here
        return written

    def _guarded_class(
        self, held: str, scope: Scope, path: tuple[Step, ...], line: int
    ) -> str | None:
        """The one class an `isinstance` test on the call's path, held true, names for
        `held` (a name or a dotted attribute) or for what the local `held` surely holds."""
        subjects = {held}
        assigned = self.state.last_assignment(held, scope, line) if held.isidentifier() else None
        if assigned is not None and isinstance(assigned[1], NAME_OR_ATTRIBUTE):
            subjects.add(dotted_name(assigned[1]) or held)
        for step in path:
            test = step.node
            if not isinstance(test, ast.expr):
                continue
            if not step.holds:
                # `if not isinstance(request, Body): return ...` before the call
                if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
                    continue
                test = test.operand
            for part in and_parts(test):
                found = isinstance_test(part)
                if found is None or not all(isinstance(a, NAME_OR_ATTRIBUTE) for a in found):
                    continue
                if dotted_name(found[0]) in subjects:
                    return dotted_name(found[1])
        return None

    def _bound(
        self, callee: str, receiver: str | None, scope: Scope, line: int
    ) -> list[tuple[str, str]]:
        """(method, receiver) of each bound method a local called by name surely holds:
        `f = self.read` or `f = self.read_joint if joint else self.read`; none for a
        call of anything else."""
        if receiver is not None or not scope.is_function or callee not in scope.assigns:
            return []
        assigned = self.state.last_assignment(callee, scope, line)
        value = assigned[1] if assigned is not None else None
        options = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        out: list[tuple[str, str]] = []
        for option in options:
            if not (isinstance(option, ast.Attribute) and isinstance(option.value, ast.Name)):
                return []
            out.append((option.attr, option.value.id))
        return list(dict.fromkeys(out))

    def pending(self) -> int:
        """How many calls are recorded so far (see `call_sites`)."""
        return len(self._pending)

    def imported_here(self, stmt: ast.ImportFrom, scope: Scope) -> None:
        """A `from module import name` inside a function: a call of a method of that name
        may reach the codebase (`from pkg.platforms import current_platform`)."""
        if scope.is_function:
            self.imported_in_function(stmt)

    def imported_in_function(self, stmt: ast.ImportFrom) -> None:
        """Bind the names a function's own `from module import name` imports."""
        for alias in stmt.names:
            name = alias.asname or alias.name
            source = (stmt.level, stmt.module, alias.name)
            if self.local_imports.setdefault(name, source) != source:
                self.local_imports[name] = None  # bound to two things: resolve neither

    def _passes(self, call: ast.Call, scope: Scope, line: int) -> tuple[tuple[str, str, int], ...]:
        """The arguments a call gives as names (`CallSite.passes`): where a parameter of
        the callee takes its value from, for the linker to follow to a setting."""
        args, keywords = call.args, call.keywords
        if not args and not keywords:
            return ()  # most calls of a large codebase: nothing to work out
        # (key, argument) of the first `MAX_PASSED`: each position, then each keyword
        given = [(str(at), arg) for at, arg in enumerate(args[:MAX_PASSED])]
        if len(given) < MAX_PASSED:
            given += [(k.arg or "**", k.value) for k in keywords[: MAX_PASSED - len(given)]]
        own: list[str] | None = None  # the parameters, worked out for the first name given
        out: list[tuple[str, str, int]] = []
        for key, arg in given:
            kind = type(arg)  # (the parser makes no subclass of a node's class)
            if kind is ast.Name and key != "**":
                name = arg.id  # type: ignore[attr-defined]
                if own is None:
                    own = self._own_params(scope)
                if name in own and not _rebound(name, scope, line):
                    out.append((key, name, own.index(name)))
                    continue
                if scope.is_function:
                    # a local: what it surely holds here, when that is a name itself, or
                    # one key read of a named dict (`backend = cfg.get("k", "auto")`)
                    assigned = self.state.last_assignment(name, scope, line)
                    value = assigned[1] if assigned is not None else None
                    if isinstance(value, NAME_OR_ATTRIBUTE):
                        name = dotted_name(value)
                    else:
                        name = (
                            _bare_call(value)
                            or self._key_read(value, scope, line, own)
                            # a chain behind a default for its object's absence
                            or (copied_chain(value) if value is not None else None)
                            or ""
                        )
                out.append((key, name or "", -1))
            elif kind is ast.Attribute and key != "**":
                out.append((key, dotted_name(arg) or "", -1))
            elif kind is ast.UnaryOp and key != "**" and type(arg.op) is ast.Not:  # type: ignore[attr-defined]
                # `log_stats=not disable_log_stats`: the name negated, `not` kept in front
                if own is None:
                    own = self._own_params(scope)
                kept = [p for p in own if not _rebound(p, scope, line)]
                out.append((key, *_negated(arg.operand, kept, own)))  # type: ignore[attr-defined]
            elif kind in _KEY_READS and key != "**" and scope.is_function:
                # one key of a named dict, read in the call itself, or a call of a plain
                # name with no argument (`get_tensor_model_parallel_world_size()`)
                if own is None:
                    own = self._own_params(scope)
                read = _bare_call(arg) or self._key_read(arg, scope, line, own)
                if read is None and kind is ast.IfExp:
                    # `dtype=cache_config.cache_dtype if cache_config is not None else "auto"`
                    read = copied_chain(arg)
                out.append((key, read or "", -1))
            elif kind is ast.BoolOp and key != "**":
                # `block_size=cache_config.block_size or 16`: the chain behind its default
                out.append((key, copied_chain(arg) or "", -1))
            else:
                # something else: the linker must know the call gives it, not a setting
                out.append(("*" if kind is ast.Starred else key, "", -1))
        if len(args) + len(keywords) > MAX_PASSED:
            out.append(("*", "", -1))  # the rest is not read: any parameter may be in it
        return tuple(out)

    def _key_read(
        self, value: ast.expr | None, scope: Scope, line: int, own: list[str]
    ) -> str | None:
        """`d.get("k", "auto")` for a local assigned one key of a dict (`d["k"]`, or
        `d.get("k", "auto") if isinstance(d, dict) else "auto"`: the same default either
        way), the dict written as the name it surely holds when it is a local holding one
        (`d = vllm_config.additional_config`); None for any other value."""
        if isinstance(value, ast.IfExp):
            fallback = value.orelse
            value = value.body
            if not (isinstance(fallback, ast.Constant) and isinstance(value, ast.Call)):
                return None
            given = value.args[1:2]
            if not (given and isinstance(given[0], ast.Constant)):
                return None
            if given[0].value != fallback.value or type(given[0].value) is not type(fallback.value):
                return None
        if isinstance(value, ast.Subscript):
            mapping, key, rest = value.value, value.slice, ""
        elif (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "get"
            and not value.keywords
            and 1 <= len(value.args) <= 2
            and all(isinstance(a, ast.Constant) for a in value.args)
        ):
            mapping, key = value.func.value, value.args[0]
            rest = f", {ast.unparse(value.args[1])}" if len(value.args) == 2 else ""
        else:
            return None
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if not isinstance(mapping, NAME_OR_ATTRIBUTE):
            return None
        held = dotted_name(mapping)
        for _ in range(_MAX_HELD_HOPS):
            if held is None:
                return None
            root, dot, attrs = held.partition(".")
            if root in own or root in OWN_OBJECT:
                break
            assigned = self.state.last_assignment(root, scope, line)
            alias = dotted_name(assigned[1]) if assigned is not None else None
            if alias is None:
                if root in scope.assigns:
                    return None  # a local holding something else: not the dict named
                break
            held = alias + dot + attrs
        if held is None:
            return None
        if isinstance(value, ast.Call):
            return f"{held}.get({key.value!r}{rest})"
        return f"{held}[{key.value!r}]"

    def _own_params(self, scope: Scope) -> list[str]:
        """The scope's parameters without `self`/`cls`, worked out once per function (not
        at each of its calls); kept with the scope, whose id cannot be reused meanwhile."""
        found = self._params_of.get(id(scope))
        if found is None or found[0] is not scope:
            found = self._params_of[id(scope)] = (
                scope,
                [p for p in scope.params if p not in OWN_OBJECT],
            )
        return found[1]

    def call_sites(
        self, keep: Callable[[CallSite], bool], among: slice = slice(None)
    ) -> tuple[CallSite, ...]:
        """The recorded calls that `keep` accepts, each with its guard (worked out now);
        `among`: of those recorded, which (`pending` tells how many are so far)."""
        out: list[CallSite] = []
        for call, path, scope in self._pending[among]:
            if not keep(call):
                continue
            conditions = self.state.conditions_of(path)
            bindings = self._guard_locals(conditions, path, scope, call.line)
            out.append(msgspec.structs.replace(call, conditions=conditions, bindings=bindings))
        return tuple(out)

    def _guard_locals(
        self, conditions: tuple[Condition, ...], path: tuple[Step, ...], scope: Scope, line: int
    ) -> tuple[Binding, ...]:
        """The locals a call's guard tests true (`if use_symm_mem and ...:`) that are true
        only when one expression is: every assignment before the call gives that expression
        or a false literal (`use_symm_mem = False` in one branch, `= envs.VLLM_X` in the
        other). The linker follows them to the settings that let the call happen."""
        if not scope.is_function or not scope.assigns:
            return ()
        out: list[Binding] = []
        for condition, step in zip(conditions, path, strict=True):
            if not condition.holds or not isinstance(step.node, ast.expr):
                continue
            for name in _true_names(step.node):
                if name in scope.params or name in scope.augmented:
                    continue
                found = self._true_only_when(name, scope, line)
                if found is not None:
                    out.append(Binding(name=name, value=found[1], line=found[0]))
        return tuple(dict.fromkeys(out))

    def _true_only_when(self, name: str, scope: Scope, line: int) -> tuple[int, str] | None:
        """(line, source) of the one expression `name` is true through, if there is one."""
        value: tuple[int, str] | None = None
        for assigned in scope.assigns.get(name, ()):
            if assigned.line >= line:
                break
            if assigned.value is None:
                return None
            if isinstance(assigned.value, ast.Constant) and not assigned.value.value:
                continue  # False, None, 0, "": the local is false there
            source = self.state.bound(assigned.value)
            if value is not None and value[1] != source:
                return None
            value = (assigned.line, source)
        return value

    def helper_candidate(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        func: ast.Name | ast.Attribute,
        scope: Scope,
        path: tuple[Step, ...],
        choose: Callable[[], Chosen | None] = lambda: None,
    ) -> None:
        """A call that may be of a raising helper. `choose` tells the argument (by position
        in `args`) that a local chose among messages, with each message and its path: a
        call is recorded for each (`message = self.message; if message is None: message =
        "..."; super().__call__(form, field, message)`)."""
        if not call.args and not call.keywords:
            return  # passes nothing (one call in eight): no message, no parameter passed on
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
        message, may_choose = (True, True) if forwards else _passed(arguments, self.state, scope)
        if not message and not may_choose:
            return  # most calls: `choose` is not even asked
        chosen = choose()
        if not message and chosen is None:
            return
        args = self.state.args(call, scope)
        fact = CallFact(
            callee=callee,
            receiver=receiver(func),
            line=stmt.lineno,
            end_line=stmt.end_lineno or stmt.lineno,
            function=scope.qualname,
            class_name=scope.class_name,
            args=args,
            conditions=self.state.conditions_of(path),
            params=scope.params if forwards else (),
            defaults=literal_defaults(scope) if forwards else {},
            receiver_type=_receiver_type(func, scope),
            bindings=self.state.bindings_of(self.state.names_of(path), scope, stmt.lineno),
        )
        if chosen is None:
            self.calls.append(fact)
            return
        at, choices = chosen
        for template, steps in choices:
            # On its path the local holds the text itself, which decides the helper's tests
            # of it (`if message is None:`).
            literal = "".join(p for p in template.parts if isinstance(p, str))
            source = repr(literal) if not template.placeholders else args[at].source
            given = msgspec.structs.replace(args[at], template=template, source=source)
            self.calls.append(
                msgspec.structs.replace(
                    fact,
                    args=(*args[:at], given, *args[at + 1 :]),
                    conditions=self.state.conditions_of(steps),
                )
            )


def _passed(arguments: tuple[ast.expr, ...], state: WalkState, scope: Scope) -> tuple[bool, bool]:
    """Whether an argument may be a raising helper's message: text, or the name of another
    module's constant (`fail(NOT_FOUND)`, resolved by the linker); and else, whether one is
    a local assigned twice or more, which `choose` may find chose among messages (the
    least `error_sites._may_choose` asks). One pass, the kinds a call passes most told
    apart first: `is_stringy` of an attribute is always False, and only a name or an
    attribute whose last part is in capitals may name a constant."""
    constants, imports, assigns = state.constants, state.imports, scope.assigns
    may_choose = False
    for node in arguments:
        if isinstance(node, ast.Name):
            name = node.id
            if isinstance(constants.get(name), str) or (
                name.isupper() and names_imported_constant(node, imports)
            ):
                return True, True
            if not may_choose and len(assigns.get(name, ())) > 1:
                may_choose = True
        elif isinstance(node, ast.Attribute):
            if node.attr.isupper() and names_imported_constant(node, imports):
                return True, True
        elif is_stringy(node, constants):
            return True, True
    return False, may_choose


_PARTIAL = frozenset({"partial", "functools.partial"})


def _handed_arguments(call: ast.Call) -> list[ast.expr]:
    """A call's arguments, and those of a `partial(...)` among them."""
    # (the call's own list when it gives nothing by keyword: most calls, only read here)
    given = [*call.args, *[k.value for k in call.keywords]] if call.keywords else call.args
    partials: list[ast.expr] = []
    for arg in given:
        if (
            isinstance(arg, ast.Call)
            and isinstance(arg.func, NAME_OR_ATTRIBUTE)
            and dotted_name(arg.func) in _PARTIAL
        ):
            partials.extend(arg.args)
    return [*given, *partials] if partials else given


def _rebound(param: str, scope: Scope, line: int) -> bool:
    """Whether the function assigns its parameter anything before the call's line (the
    call may then pass another value than its caller gave: `stream_interval =
    max(asked, stream_interval)`); its own result assigned to it is no such value."""
    return any(a.value is not None and a.line < line for a in scope.assigns.get(param, ()))


def _negated(operand: ast.expr, kept: list[str], own: list[str]) -> tuple[str, int]:
    """(`not name`, the caller's parameter's index or -1) for `not` of a parameter the
    function never rebinds (of `kept`, among all its parameters `own`) or of an attribute
    chain; ("", -1) for `not` of anything else."""
    if isinstance(operand, ast.Name) and operand.id in kept:
        return f"not {operand.id}", own.index(operand.id)
    if isinstance(operand, ast.Attribute):
        dotted = dotted_name(operand)
        return (f"not {dotted}", -1) if dotted else ("", -1)
    return "", -1


def _bare_call(value: ast.expr | None) -> str | None:
    """`f()` for a call of a plain name with no argument (a group accessor's size,
    `get_tensor_model_parallel_world_size()`, which the linker follows to its flag)."""
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and not value.args
        and not value.keywords
    ):
        return f"{value.func.id}()"
    return None


def _passes_on(arg: ast.expr, params: tuple[str, ...]) -> bool:
    """Whether the argument is a message parameter, or something made from one first
    (`exc.SAWarning(msg, code=code)`)."""
    if isinstance(arg, ast.Call) and arg.args:
        arg = arg.args[0]
    return isinstance(arg, ast.Name) and arg.id in params and arg.id in MESSAGE_PARAMS


def own_attribute_target(call: ast.Call) -> tuple[str, str] | None:
    """(callee, `self.x`) of a method called on an attribute of the object's own
    (`self.runner.prepare(batch)`), giving something; None for any other shape."""
    func = call.func
    if not (call.args or call.keywords) or not isinstance(func, ast.Attribute):
        return None
    held = func.value
    if (
        isinstance(held, ast.Attribute)
        and isinstance(held.value, ast.Name)
        and held.value.id in OWN_OBJECT
        and not func.attr.startswith("__")
    ):
        return func.attr, f"{held.value.id}.{held.attr}"
    return None


def _receiver_type(func: ast.Name | ast.Attribute, scope: Scope) -> str | None:
    """What the code says the object a method is called on is (`CallFact.receiver_type`):
    the call that returned it, used at once (`get_config().check(...)`) or kept in a name,
    or the class a name is annotated with, here or in the functions around this one."""
    target = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(target, ast.Call):
        return call_shape(target)
    if not isinstance(target, ast.Name) or target.id in OWN_OBJECT:
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


def _true_names(test: ast.expr) -> list[str]:
    """The plain names a test requires true: itself, or the conjuncts of an `and`."""
    parts = and_parts(test)
    return [p.id for p in parts if isinstance(p, ast.Name)]
