"""Callers: which functions call a site's function, under which guard, up a few levels.

Each recorded call (`self._validate()`, `helper()`, `mod.helper()`, `Config(...)`) is
resolved once to the function it reaches: `self`/`cls` calls through the caller's class and
its bases, bare names through the module's definitions and imports (a function's own
`from m import Name` too), module attributes through imports. Calling a class reaches its
`__init__` and `__post_init__`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

import msgspec

from errdex.extract.shapes import OWN_ATTRIBUTE, OWN_OBJECT, SUPER
from errdex.facts import CallSite, FileFacts
from errdex.link.public import PublicPaths
from errdex.link.receivers import ReceiverClasses
from errdex.link.resolve import Namespace, ResolvedClass
from errdex.linked_facts import CallerLink

Target = tuple[str, str]  # (module, qualname)

MAX_DEPTH = 3
MAX_PER_LEVEL = 4  # callers kept for each function on the way up
MAX_CALLERS = 10
# The calls a value may come down from a public call through (`flow_callers`): deeper and
# wider than the callers a page shows, without their guards.
FLOW_DEPTH = 5
FLOW_PER_LEVEL = 8
FLOW_CALLERS = 24
_CONSTRUCTORS = ("__init__", "__post_init__")
_MAX_FAMILY = 16  # classes defining one method name, for a call whose receiver is unknown
# What Python runs at the end of a user's `class` statement: a metaclass's `__new__` and
# `__init__` (a class deriving from one of these metaclasses of the standard library), a
# base's `__init_subclass__`
METACLASSES = frozenset(
    {"type", "ABCMeta", "abc.ABCMeta", "EnumMeta", "enum.EnumMeta", "EnumType", "enum.EnumType"}
)
METACLASS_HOOKS = ("__new__", "__init__")
SUBCLASS_HOOK = "__init_subclass__"
_HOOK_ENDS = tuple(f".{name}" for name in (*METACLASS_HOOKS, SUBCLASS_HOOK))
# a call as a file's resolution keys it: receiver, class, callee, receiver's type
_CallKey = tuple[str | None, str | None, str, str | None]
_ByFunction = dict[str, list[tuple[int, CallSite]]]  # a file's calls by function, placed


class CallerIndex:
    """Every resolved call of a version, by the function it reaches."""

    def __init__(
        self,
        files: list[FileFacts],
        names: Namespace,
        public: PublicPaths | None = None,
        receivers: ReceiverClasses | None = None,
    ) -> None:
        self._names = names
        self._public = public
        self._receivers = receivers
        self._by_target: dict[Target, list[tuple[CallSite, FileFacts]]] = defaultdict(list)
        self._memo: dict[Target, tuple[CallerLink, ...]] = {}
        self._flow: dict[Target, tuple[CallerLink, ...]] = {}
        self._nearest: dict[Target, tuple[str, ...]] = {}
        # a function's calls, asked for once a site and a parameter of it
        self._passing: dict[Target, tuple[tuple[CallSite, FileFacts], ...]] = {}
        # calls passing names on whose receiver no import resolves (a module-level object
        # chosen at run time: `current_platform.get_attn_backend_cls(backend)`), by method
        self._unresolved: dict[str, list[tuple[CallSite, FileFacts]]] = defaultdict(list)
        self._families: dict[str, set[str] | None] = {}
        # each function a class-creation hook reaches → the hook's call nearest it (made
        # once a version, at the first ask: `class_hook_link`)
        self._hooked: dict[Target, CallerLink] | None = None
        self._definers: defaultdict[str, list[ResolvedClass]] | None = None  # by method name
        # each file's calls resolved, by the call's key (`_outgoing` reads them again)
        self._files = [f for f in files if f.error is None]
        self._reached: list[tuple[dict[_CallKey, list[Target]], dict[_CallKey, Target | None]]] = []
        by_target, unresolved = self._by_target, self._unresolved
        # calls of a method on an object whose class the code says (`_on_object`), apart:
        # the callers a walk keeps first stay those a name reaches
        on_object: dict[Target, list[tuple[CallSite, FileFacts]]] = defaultdict(list)
        for facts in self._files:
            # A file calls the same functions many times: each callee is resolved once.
            reached: dict[_CallKey, list[Target]] = {}
            reached_on_object: dict[_CallKey, Target | None] = {}
            self._reached.append((reached, reached_on_object))
            for call in facts.call_sites:
                key = (call.receiver, call.class_name, call.callee, call.receiver_type)
                targets = reached.get(key)
                if targets is None:
                    targets = reached[key] = self._resolve(call, facts)
                if targets:
                    for target in targets:
                        by_target[target].append((call, facts))
                elif self._receivers is not None and (
                    call.receiver_type is not None
                    or (call.receiver or "").startswith(OWN_ATTRIBUTE)
                ):
                    if key not in reached_on_object:  # a miss is kept too (None)
                        reached_on_object[key] = self._on_object(call, facts)
                    found = reached_on_object[key]
                    if found is not None:
                        on_object[found].append((call, facts))
                elif (
                    call.passes
                    and call.receiver is not None
                    and call.receiver not in (*OWN_OBJECT, SUPER)
                    and "." not in call.receiver
                    and call.receiver_type is None
                ):
                    unresolved[call.callee].append((call, facts))
        self._on_objects: dict[Target, list[tuple[CallSite, FileFacts]]] = dict(on_object)
        # the ids of those calls
        self._object_calls = {id(call) for calls in on_object.values() for call, _ in calls}

    def callers(self, module: str, function: str) -> tuple[CallerLink, ...]:
        """Callers of `module.function`, nearest first, each level's guards kept."""
        key = (module, function)
        found = self._memo.get(key)
        if found is None:
            found = self._walk(key)
            self._memo[key] = found
        return found

    def flow_callers(self, module: str, function: str) -> tuple[CallerLink, ...]:
        """The calls up to `FLOW_DEPTH` levels above `module.function` (a few a function,
        nearest first, with no guard): the chains a value a user gave a public call may
        come down to a check by (`explain/entry_flow.py` reads which hand it on). Those
        `callers` keeps already are left out."""
        key = (module, function)
        found = self._flow.get(key)
        if found is None:
            shown = {(c.module, c.function, c.line, c.calls) for c in self.callers(*key)}
            found = self._flow[key] = tuple(
                c
                for c in self._walk(key, FLOW_DEPTH, FLOW_PER_LEVEL, FLOW_CALLERS, guards=False)
                if (c.module, c.function, c.line, c.calls) not in shown
            )
        return found

    def nearest(self, module: str, function: str) -> tuple[str, ...]:
        """The dotted names of the callers `callers` keeps one level up, made once for the
        sites of a function."""
        key = (module, function)
        found = self._nearest.get(key)
        if found is None:
            links = self.callers(module, function)
            found = self._nearest[key] = tuple(
                f"{c.module}.{c.function}" for c in links if c.depth == 1
            )
        return found

    def direct_callers(self, module: str, function: str) -> list[tuple[str, str]]:
        """Every function that calls `module.function` (no cap, no guards): for walks that
        need all of them, such as from a flag up to the subcommands that parse it."""
        found = dict.fromkeys(
            (facts.module, call.function)
            for call, facts in self._calls_of((module, function))
            if call.function != "<module>"
        )
        return list(found)

    def passing_calls(self, module: str, function: str) -> tuple[tuple[CallSite, FileFacts], ...]:
        """The calls of `module.function`: those resolved to it, and
        for a method, those of an object no import resolves when every class of the
        version defining a method of that name is the one class defining it first or a
        subclass of it (the platforms of one base): the call reaches one of them."""
        key = (module, function)
        found = self._passing.get(key)
        if found is None:
            calls = self._calls_of(key)
            owner, _, method = function.rpartition(".")
            unresolved = self._unresolved.get(method) if owner else None
            if unresolved and f"{module}.{owner}" in (self._family(method) or ()):
                calls = [*calls, *unresolved]
            found = self._passing[key] = tuple(calls)
        return found

    def class_hook_link(self, module: str, function: str) -> CallerLink | None:
        """The call, in a class-creation hook (a metaclass's `__new__`/`__init__`, a
        base's `__init_subclass__`), nearest `module.function` on some chain of calls at
        any depth (the `depth` said), that chain's first step down from the hook as
        `calls`; None when no hook reaches it. One walk down from every hook of the
        version, made at the first ask."""
        if self._hooked is None:
            self._hooked = self._hook_reach()
        return self._hooked.get((module, function))

    def _hook_reach(self) -> dict[Target, CallerLink]:
        """`class_hook_link` of every function a hook reaches: a walk breadth first down
        the calls, from all hooks at once (each function's calls read at its first visit:
        `_outgoing`, in the order of `_by_target`'s lists)."""
        order = {target: n for n, target in enumerate(self._by_target)}
        object_order = {target: n for n, target in enumerate(self._on_objects)}
        by_module: defaultdict[str, list[int]] = defaultdict(list)
        for number, facts in enumerate(self._files):
            by_module[facts.module].append(number)
        down: dict[Target, list[tuple[tuple[int, int, int, int], Target, int, str]]] = {}
        grouped: dict[int, tuple[_ByFunction, _ByFunction]] = {}

        def outgoing(caller: Target) -> list[tuple[tuple[int, int, int, int], Target, int, str]]:
            found = down.get(caller)
            if found is None:
                found = down[caller] = self._outgoing(
                    caller, by_module.get(caller[0], ()), order, object_order, grouped
                )
            return found

        # the hooks among the functions that make a call or hand a callback on, in the
        # order a walk of `_by_target`, `_on_objects`, then the callbacks meets them
        hooks = {
            (facts.module, call.function)
            for facts in self._files
            for call in (*facts.call_sites, *facts.callbacks)
            if call.function.endswith(_HOOK_ENDS)
        }
        made = {hook: calls for hook in hooks if self._is_hook(hook) and (calls := outgoing(hook))}
        found: dict[Target, CallerLink] = {}
        level: list[tuple[Target, CallerLink | None]] = [
            (hook, None) for hook in sorted(made, key=lambda hook: made[hook][0][0])
        ]
        seen = {hook for hook, _ in level}
        depth = 0
        while level:
            depth += 1
            following: list[tuple[Target, CallerLink | None]] = []
            for caller, link in level:
                for _, target, line, path in outgoing(caller):
                    if target in seen:
                        continue
                    seen.add(target)
                    reached = link or CallerLink(
                        function=caller[1],
                        module=caller[0],
                        file=path,
                        line=line,
                        calls=f"{target[0]}.{target[1]}",
                        guard_known=False,
                    )
                    found[target] = msgspec.structs.replace(reached, depth=depth)
                    following.append((target, reached))
            level = following
        return found

    def _outgoing(
        self,
        caller: Target,
        numbers: Iterable[int],
        order: dict[Target, int],
        object_order: dict[Target, int],
        grouped: dict[int, tuple[_ByFunction, _ByFunction]],
    ) -> list[tuple[tuple[int, int, int, int], Target, int, str]]:
        """The calls `caller` makes that reach a function, and the callbacks it hands on
        (`_callback_targets`), each with its target, line and file, in the order a walk of
        `_by_target`, then `_on_objects`, then every file's callbacks meets them: each with
        that place as its key (by name, on an object or a callback; the target's place or
        the file's; the call's). `numbers`: the files of the caller's module; `grouped`:
        each file's calls and callbacks by function, with their places, filled here."""
        function = caller[1]
        out: list[tuple[tuple[int, int, int, int], Target, int, str]] = []
        for number in numbers:
            facts = self._files[number]
            found = grouped.get(number)
            if found is None:
                found = grouped[number] = (
                    _by_function(facts.call_sites),
                    _by_function(facts.callbacks),
                )
            calls, callbacks = found
            reached, on_object = self._reached[number]
            for position, call in calls.get(function, ()) if function != "<module>" else ():
                key = (call.receiver, call.class_name, call.callee, call.receiver_type)
                targets = reached.get(key)
                if targets:
                    out.extend(
                        ((0, order[t], number, position), t, call.line, facts.path) for t in targets
                    )
                elif (target := on_object.get(key)) is not None:
                    out.append(
                        ((1, object_order[target], number, position), target, call.line, facts.path)
                    )
            for position, call in callbacks.get(function, ()):
                out.extend(
                    ((2, number, position, n), target, call.line, facts.path)
                    for n, target in enumerate(self._callback_targets(call, facts))
                )
        out.sort(key=lambda entry: entry[0])
        return out

    def _callback_targets(self, call: CallSite, facts: FileFacts) -> list[Target]:
        """The method a callback (`FileFacts.callbacks`) is: resolved as a call of it would
        be, by name or on an object of known class."""
        found = self._resolve(call, facts)
        if found or self._receivers is None:
            return found
        on_object = self._on_object(call, facts)
        return [on_object] if on_object is not None else []

    def _is_hook(self, target: Target) -> bool:
        owner, _, method = target[1].rpartition(".")
        if not owner or "<locals>" in owner:
            return False
        if method == SUBCLASS_HOOK:
            return True
        if method not in METACLASS_HOOKS:
            return False
        known = self._names.classes.get(f"{target[0]}.{owner}")
        return known is not None and any(
            METACLASSES.intersection(c.fact.bases)
            for c in self._names.class_and_bases(known.file, owner)
        )

    def _family(self, method: str) -> set[str] | None:
        """The classes defining `method` when one of them is a base of all the others."""
        if method in self._families:
            return self._families[method]
        if self._definers is None:
            # each class once for every method asked about, not every class for each
            self._definers = defaultdict(list)
            for known in self._names.classes.values():
                for name in dict.fromkeys(known.fact.methods):
                    self._definers[name].append(known)
        definers = self._definers.get(method, [])
        family: set[str] | None = None
        if 1 <= len(definers) <= _MAX_FAMILY and not method.startswith("__"):
            qualified = {f"{c.file.module}.{c.fact.qualname}" for c in definers}
            lines = {
                f"{c.file.module}.{c.fact.qualname}": {
                    f"{b.file.module}.{b.fact.qualname}"
                    for b in self._names.class_and_bases(c.file, c.fact.qualname)
                }
                for c in definers
            }
            if any(all(root in line for line in lines.values()) for root in qualified):
                family = qualified
        self._families[method] = family
        return family

    def _calls_of(self, target: Target) -> list[tuple[CallSite, FileFacts]]:
        """The calls reaching `target`: by name first, then on an object of its class."""
        named = self._by_target.get(target, [])
        on_object = self._on_objects.get(target)
        return [*named, *on_object] if on_object else named

    def _walk(
        self,
        start: Target,
        most_depth: int = MAX_DEPTH,
        per_level: int = MAX_PER_LEVEL,
        most: int = MAX_CALLERS,
        guards: bool = True,
    ) -> tuple[CallerLink, ...]:
        """The callers up from `start`: those calls by name reach first (a call of a method
        on an object of known class kept from their room), then, where room is left, those
        the calls on objects add."""
        named = self._walk_by(start, most_depth, per_level, most, guards, self._by_target.get)
        if not self._on_objects or len(named) >= most:
            return named
        every = self._walk_by(start, most_depth, per_level, most, guards, self._calls_of)
        shown = {(c.module, c.function, c.line, c.calls) for c in named}
        added = [c for c in every if (c.module, c.function, c.line, c.calls) not in shown]
        return (*named, *added[: most - len(named)])

    def _walk_by(
        self,
        start: Target,
        most_depth: int,
        per_level: int,
        most: int,
        guards: bool,
        calls_of: Callable[[Target], list[tuple[CallSite, FileFacts]] | None],
    ) -> tuple[CallerLink, ...]:
        out: list[CallerLink] = []
        on_object = self._object_calls
        seen = {start}
        level = [start]
        for depth in range(1, most_depth + 1):
            following: list[Target] = []
            for target in level:
                for call, facts in (calls_of(target) or [])[:per_level]:
                    caller = (facts.module, call.function)
                    if caller in seen or call.function == "<module>":
                        continue
                    seen.add(caller)
                    following.append(caller)
                    # a call on an object of known class: its guard is not read as what
                    # decides the check (the object may be set where no flag is the way
                    # to it, and other calls reach the method): shown unknown
                    guarded = guards and id(call) not in on_object
                    out.append(
                        CallerLink(
                            function=call.function,
                            module=facts.module,
                            file=facts.path,
                            line=call.line,
                            calls=f"{target[0]}.{target[1]}",
                            guard=call.conditions if guarded else (),
                            depth=depth,
                            guard_known=call.guard_known and id(call) not in on_object,
                            bindings=call.bindings if guarded else (),
                            public=self._public_path(caller),
                        )
                    )
                    if len(out) >= most:
                        return tuple(out)
            level = following
            if not level:
                break
        return tuple(out)

    def _public_path(self, caller: Target) -> str | None:
        """The caller's public path when it is not where it is defined (a class a package
        re-exports: `httpx.Client.__init__`), for the page to name the call a user writes."""
        if self._public is None:
            return None
        found = self._public.of(*caller)
        return found if found != f"{caller[0]}.{caller[1]}" else None

    # -- resolution ------------------------------------------------------------------------

    def _on_object(self, call: CallSite, facts: FileFacts) -> Target | None:
        """The method a call on an object whose class the code says reaches
        (`self.runner.prepare(batch)`, `engine: LLMEngine` ... `engine.add_request(...)`):
        that class's or its nearest base's (`ReceiverClasses.site_class`)."""
        cls = self._receivers.site_class(call, facts) if self._receivers else None
        if cls is None:
            return None
        return self._names.method_owner(cls.file, cls.fact.qualname, call.callee)

    def named(self, facts: FileFacts, name: str, function: str) -> list[Target]:
        """What a bare name `function` of `facts` hands on (`Process(target=name)`) names,
        resolved as a call of it would be: the module's own function, an import, a
        re-export, a class's constructor."""
        return self._resolve(CallSite(callee=name, receiver=None, line=0, function=function), facts)

    def _resolve(self, call: CallSite, facts: FileFacts) -> list[Target]:
        receiver = call.receiver
        if receiver in OWN_OBJECT or receiver == SUPER:
            if call.class_name is None:
                return []
            # `super().__init__(auth=auth)`: the nearest base's method, so a subclass's
            # constructor is a caller of the base's (the public class a user calls)
            found = self._names.method_owner(
                facts, call.class_name, call.callee, bases_only=receiver == SUPER
            )
            return [found] if found else []
        if receiver is None:
            if call.callee in facts.defs:
                return [(facts.module, call.callee)]
            if call.callee == "cls" and call.class_name is not None:
                # `cls(...)` in a classmethod (`from_engine_args`): its class's constructor
                own = self._names.classes.get(f"{facts.module}.{call.class_name}")
                return self._constructors(own) if own is not None else []
            dotted = call.callee
        else:
            dotted = f"{receiver}.{call.callee}"
        root, _, rest = dotted.partition(".")
        if (
            root not in facts.imports
            and root not in facts.local_imports
            and f"{facts.module}.{root}" not in self._names.classes
        ):
            # most calls: a method of a local's object (`items.append`), a builtin; only
            # a class of the module (or one nested in it) is reached without an import
            return []
        local_class = self._names.classes.get(f"{facts.module}.{dotted}")
        if local_class is not None:
            return self._constructors(local_class)
        owner, _, method = dotted.rpartition(".")
        if owner and f"{facts.module}.{owner}" in self._names.classes:
            # `Base.method(...)` on a class of the same module (a subclass calling its base)
            found = self._names.method_owner(facts, owner, method)
            return [found] if found else []
        if root in facts.imports:
            if self._names.imported_from_outside(facts, root):
                return []  # `torch.cat(...)`: no module of the version holds it
            qualified = self._names.qualify(facts, dotted)
        elif root in facts.local_imports:  # imported by a function itself
            target = facts.local_imports[root]
            qualified = f"{target}.{rest}" if rest else target
        else:
            return []
        found_in = self._names.lookup(qualified)
        if found_in is None:
            return []
        module, name = found_in
        cls = self._names.classes.get(f"{module.module}.{name}")
        if cls is not None:
            return self._constructors(cls)
        if "." in name:  # Class.method called on the class
            owner, _, method = name.rpartition(".")
            found = self._names.method_owner(module, owner, method)
            return [found] if found else []
        return [(module.module, name)] if name in module.defs else []

    def _constructors(self, cls: ResolvedClass) -> list[Target]:
        module = cls.file.module
        out: list[Target] = []
        for method in _CONSTRUCTORS:
            found = self._names.method_owner(cls.file, cls.fact.qualname, method)
            if found is not None:
                out.append(found)
        return out or [(module, f"{cls.fact.qualname}.__init__")]


def _by_function(calls: tuple[CallSite, ...]) -> _ByFunction:
    """The calls by the function that makes them, each with its place in `calls`."""
    found: _ByFunction = defaultdict(list)
    for position, call in enumerate(calls):
        found[call.function].append((position, call))
    return found
