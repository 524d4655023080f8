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
from errdex.facts import CallFact, CallSite, FileFacts
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
        # `site_class`'s, apart: it reads the same spelling more strictly (`_written`)
        self._sites: dict[tuple[str, str, str, str | None], ResolvedClass | None] = {}
        # (module, class, attribute) → the class `self.attribute` holds
        self._attributes: dict[tuple[str, str, str], ResolvedClass | None] = {}

    def class_of(self, call: CallFact, facts: FileFacts) -> ResolvedClass | None:
        """The class of the object `call` calls a method on; None when the code does not
        say (or says a class from outside the version)."""
        receiver = call.receiver or ""
        key = (facts.path, receiver, call.receiver_type, call.class_name)
        if key not in self._found:
            self._found[key] = self._class_of(receiver, call.receiver_type, call, facts)
        return self._found[key]

    def site_class(self, call: CallSite, facts: FileFacts) -> ResolvedClass | None:
        """The class of the object a recorded call (`CallSite`) calls a method on: for an
        attribute of the object's own (`self.runner`), what its class says of it
        (`attribute_class`); for a local or a parameter, its `receiver_type`. None when the
        code does not say: the method's name is never evidence."""
        receiver = call.receiver or ""
        head, dot, attr = receiver.partition(".")
        if dot:
            if head not in OWN_OBJECT or "." in attr or call.class_name is None:
                return None
            return self.attribute_class(facts, call.class_name, attr)
        written = call.receiver_type
        if written is None:
            return None
        key = (facts.path, receiver, written, call.class_name)
        if key not in self._sites:
            self._sites[key] = self._written(written, call.class_name, facts, facts)
        return self._sites[key]

    def attribute_class(self, facts: FileFacts, class_name: str, attr: str) -> ResolvedClass | None:
        """The class `self.<attr>` holds in `class_name` (of `facts`): what the nearest of
        the class and its bases that assigns or annotates it says (`ClassFact.
        attr_classes`; for one kept from a constructor's parameter, `ClassFact.attr_from`,
        that parameter's annotation), or a property's annotated return; None when that one
        does not say."""
        key = (facts.module, class_name, attr)
        if key in self._attributes:
            return self._attributes[key]
        found: ResolvedClass | None = None
        for cls in self._names.class_and_bases(facts, class_name):
            written = cls.fact.attr_classes.get(attr)
            if written is not None:
                if written:
                    found = self._written(written, class_name, cls.file, facts)
                elif (param := cls.fact.attr_from.get(attr)) is not None:
                    # `self.runner = runner`, all the class assigns it: what the
                    # constructor's parameter is annotated with (`runner: Runner`)
                    init = cls.file.params.get(f"{cls.fact.qualname}.__init__", {})
                    annotated = init.get(param)
                    found = self._names.resolve_class(cls.file, annotated) if annotated else None
                break
            if attr in cls.fact.methods:  # a property: what its return is annotated as
                returned = cls.file.returns.get(f"{cls.fact.qualname}.{attr}")
                if returned is not None:
                    found = self._names.resolve_class(cls.file, returned)
                break
        self._attributes[key] = found
        return found

    def _written(
        self, written: str, class_name: str | None, where: FileFacts, own: FileFacts
    ) -> ResolvedClass | None:
        """The class `written` names in `where`: a class, or a call of a class or of a
        function whose return is annotated (`make_runner()`, `self._make()`, the method of
        `class_name` in `own`); not a method of some other object (`?.make()`, `x.make()`)."""
        names = self._names
        if not written.endswith(")"):
            return names.resolve_class(where, written)
        if not written.endswith("()"):
            return None  # a parameter of an override: read for `CallFact`s alone
        called = written[:-2]
        head, _, name = called.rpartition(".")
        root = head.partition(".")[0]
        if head in OWN_OBJECT:
            return self._own_return(own, class_name, name)
        if head and (root not in where.imports or names.imported_from_outside(where, root)):
            return None  # a method of an object, or of an outside module (`torch.empty()`)
        return names.resolve_class(where, called) or self._return_of(
            names.lookup(names.qualify(where, called))
        )

    def _own_return(
        self, own: FileFacts, class_name: str | None, name: str
    ) -> ResolvedClass | None:
        """The class the method `name` of `class_name` (of `own`) or of its nearest base
        defining it is annotated to return (`self._make()`)."""
        if class_name is None:
            return None
        owner = self._names.method_owner(own, class_name, name)
        module = self._names.modules.get(owner[0]) if owner else None
        return self._return_of((module, owner[1])) if module and owner else None

    def _return_of(self, found: tuple[FileFacts, str] | None) -> ResolvedClass | None:
        """The class the function `found` (its file, its qualname) is annotated to return."""
        if found is None or found[1] not in found[0].returns:
            return None
        return self._names.resolve_class(found[0], found[0].returns[found[1]])

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
            return self._own_return(facts, call.class_name, name)
        known = not head or head.partition(".")[0] in facts.imports  # this file's, or imported
        found = names.lookup(names.qualify(facts, called)) if known else None
        if found is not None and found[1] in found[0].returns:
            return self._return_of(found)
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
