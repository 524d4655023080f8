"""The class of the object a method is called on, when the code says which it is.

`mm_items.get_items("image")` reaches `MultiModalDataItems.get_items` only if `mm_items` is
one: a method's name being unique in the version is no evidence (`mismatched.remove(...)`
on a list is not the one `remove` of the version). The evidence read here is what
extraction recorded as `CallFact.receiver_type`: the class a name is annotated with, or the
call that made the object, a class's constructor or a function whose return is annotated
(`current_workspace_manager() -> "WorkspaceManager"`).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import islice

from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import CallFact, FileFacts
from errdex.link.resolve import Namespace, ResolvedClass


class ReceiverClasses:
    """The classes that method calls' receivers have, resolved once per file and spelling."""

    def __init__(self, names: Namespace) -> None:
        self._names = names
        # function name → (its file, the class its return is annotated as, as written there)
        self._returning: dict[str, list[tuple[FileFacts, str]]] = defaultdict(list)
        for facts in names.modules.values():
            for qualname, written in facts.returns.items():
                self._returning[qualname.rpartition(".")[2]].append((facts, written))
        self._found: dict[tuple[str, str, str | None, str | None], ResolvedClass | None] = {}

    def class_of(self, call: CallFact, facts: FileFacts) -> ResolvedClass | None:
        """The class of the object `call` calls a method on; None when the code does not
        say (or says a class from outside the version)."""
        receiver = call.receiver or ""
        key = (facts.path, receiver, call.receiver_type, call.class_name)
        if key not in self._found:
            self._found[key] = self._class_of(receiver, call.receiver_type, call, facts)
        return self._found[key]

    def _class_of(
        self, receiver: str, written: str | None, call: CallFact, facts: FileFacts
    ) -> ResolvedClass | None:
        names = self._names
        if receiver and receiver != "..." and "." not in receiver:
            cls = names.resolve_class(facts, receiver)  # `Config.check(...)` on the class
            if cls is not None:
                return cls
        if written is None:
            return None
        if written.endswith("()"):
            called = written[:-2]
            return names.resolve_class(facts, called) or self._returned(called, call, facts)
        if written.endswith(")"):
            return self._overridden_parameter(written, facts)
        return names.resolve_class(facts, written)  # `ctx: Context | None`

    def _overridden_parameter(self, written: str, facts: FileFacts) -> ResolvedClass | None:
        """The class of the parameter of `Class.method(param)`, not annotated there: what
        the nearest base's `method` annotates it with (an override takes what it overrides)."""
        method, _, param = written[:-1].partition("(")
        class_name, _, name = method.rpartition(".")
        bases = islice(self._names.class_and_bases(facts, class_name), 1, None)  # not itself
        for base in bases:
            annotated = base.file.params.get(f"{base.fact.qualname}.{name}", {}).get(param)
            if annotated is not None:
                return self._names.resolve_class(base.file, annotated)
        return None

    def _returned(self, called: str, call: CallFact, facts: FileFacts) -> ResolvedClass | None:
        """The class the function `called` (as the caller writes it) returns."""
        names = self._names
        head, _, name = called.rpartition(".")
        if head in OWN_OBJECT:
            owner = names.method_owner(facts, call.class_name, name) if call.class_name else None
            where = names.modules.get(owner[0]) if owner else None
            written = where.returns.get(owner[1]) if where and owner else None
            return names.resolve_class(where, written) if where and written else None
        known = not head or head.partition(".")[0] in facts.imports  # this file's, or imported
        found = names.lookup(names.qualify(facts, called)) if known else None
        if found is not None and found[1] in found[0].returns:
            module, qualname = found
            return names.resolve_class(module, module.returns[qualname])
        if not head or names.modules.get(names.qualify(facts, head)):
            return None  # a function of this file or of a module: its return is not annotated
        # A method of an object whose class is not known: every function of that name
        # whose return is annotated must return the same class.
        classes = {
            cls.qualname: cls
            for where, written in self._returning.get(name, [])
            if (cls := names.resolve_class(where, written)) is not None
        }
        return next(iter(classes.values())) if len(classes) == 1 else None
