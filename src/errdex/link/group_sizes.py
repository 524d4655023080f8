"""A size read through an accessor of a module global, followed to what its callers pass.

`get_tensor_model_parallel_world_size()` returns `get_tp_group().world_size`;
`get_tp_group()` returns `_TP`; `initialize_model_parallel` builds `_TP` from its parameter
`tensor_model_parallel_size` (`extract.group_sizes`); its callers pass their own parameter
on, until one passes a name (`parallel_config.tensor_parallel_size`), whose settings the
knob index knows. Only a parameter every caller found passes the same way is followed.
A size read of the group an accessor returns (`get_pp_group().world_size`) is followed the
same way from the global; only a size: a group's rank is none of the flag's value.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from errdex.facts import CallSite, FileFacts
from errdex.link.resolve import Namespace
from errdex.linked_facts import KnobLink

_MAX_HOPS = 4  # callers passing a parameter on, followed up
_MAX_CALLERS = 6

# (caller's facts, its function when known, the name as called, line, position → (the
# name passed, the caller's parameter passed on as is, else -1))
_Call = tuple[FileFacts, str | None, str, int, dict[int, tuple[str, int]]]
_NameCall = tuple[str, int, tuple[str, ...]]  # `FileFacts.name_calls`
Resolve = Callable[[str, FileFacts], tuple[KnobLink, ...]]


class GroupSizes:
    """The accessors, the globals set from a parameter and the calls passing names."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._files = [facts for facts in files if facts.error is None]
        self._has_sets = any(facts.global_sets for facts in self._files)
        # The calls of a callee's name, made when a group's size first needs them: a
        # version asks for a few names (vllm: 2 of 113,000 calls' names), and one with no
        # global set from a parameter for none (most: no group accessor at all).
        self._calls: dict[str, list[_Call]] = {}
        self._by_callee: dict[str, list[tuple[FileFacts, CallSite | _NameCall]]] | None = None
        # a group's size as each file reaching its accessor asks again: followed once
        self._groups: dict[tuple[str, str, str, str, str], list[KnobLink]] = {}

    def knobs(self, dotted: str, facts: FileFacts, resolve: Resolve) -> list[KnobLink]:
        """The settings behind the call `dotted()` of a group accessor, as `facts` reads it:
        one returning a size of another accessor's group (`get_tp_group().world_size`)."""
        found = self._accessor(dotted, facts)
        if found is None:
            return []
        home, name = found
        returned = home.group_accessors.get(name)
        if returned is None or "()." not in returned:
            return []
        inner, _, attr = returned.partition("().")
        said = f"`{dotted}()` ({home.path}) returns `{returned}`, the `{attr}` of "
        return self._group(home, inner, attr, said, f"{dotted}()", resolve)

    def size_read(self, call: str, attr: str, facts: FileFacts, resolve: Resolve) -> list[KnobLink]:
        """The settings behind `call().attr`, a size read of the group that the accessor
        `call` returns (`get_pp_group().world_size`), as `facts` reads it."""
        found = self._accessor(call, facts)
        if found is None:
            return []
        home, name = found
        said = f"`{call}()` ({home.path}) returns "
        return self._group(home, name, attr, said, f"{call}().{attr}", resolve)

    def _calls_of(self, callee: str) -> list[_Call]:
        """The calls of `callee` (a last name) passing arguments by position, in the
        version's order: each file's calls, then its calls of a name with names."""
        found = self._calls.get(callee)
        if found is not None:
            return found
        if self._by_callee is None:
            by_callee: dict[str, list[tuple[FileFacts, CallSite | _NameCall]]] = {}
            for facts in self._files:
                for call in facts.call_sites:
                    if call.passes:
                        by_callee.setdefault(call.callee, []).append((facts, call))
                for named in facts.name_calls:
                    by_callee.setdefault(named[0].rsplit(".", 1)[-1], []).append((facts, named))
            self._by_callee = by_callee
        found = self._calls[callee] = []
        for facts, made in self._by_callee.get(callee, ()):
            if isinstance(made, tuple):
                called, line, args = made
                found.append((facts, None, called, line, {i: (a, -1) for i, a in enumerate(args)}))
                continue
            given = {int(k): (n, p) for k, n, p in made.passes if k.isdigit()}
            if given:
                called = f"{made.receiver}.{made.callee}" if made.receiver else made.callee
                found.append((facts, made.function, called, made.line, given))
        return found

    def _accessor(self, dotted: str, facts: FileFacts) -> tuple[FileFacts, str] | None:
        """The file defining the function `dotted` names in `facts`, and its name there:
        imported at the module's top, or in a function (`from vllm.distributed import
        get_pp_group` in the method that reads it)."""
        if not self._has_sets:
            return None
        if dotted in facts.imports:
            return self._names.lookup(self._names.qualify(facts, dotted))
        imported = facts.local_imports.get(dotted)
        return self._names.lookup(imported) if imported is not None else None

    def _group(
        self, home: FileFacts, accessor: str, attr: str, said: str, behind: str, resolve: Resolve
    ) -> list[KnobLink]:
        """The settings behind the size `attr` of the global `home`'s `accessor` returns:
        only a size (`world_size`), not the rank or the handles a group holds."""
        key = (home.path, accessor, attr, said, behind)
        found = self._groups.get(key)
        if found is None:
            found = self._group_once(home, accessor, attr, said, behind, resolve)
            self._groups[key] = found
        return list(found)

    def _group_once(
        self, home: FileFacts, accessor: str, attr: str, said: str, behind: str, resolve: Resolve
    ) -> list[KnobLink]:
        group = home.group_accessors.get(accessor)
        if group is None or "(" in group or not attr.endswith("size"):
            return []
        set_from = home.global_sets.get(group)
        if set_from is None:
            return []
        function, param, position = set_from
        said += f"`{group}`, which `{function}` builds from its parameter `{param}`"
        return self._passed(home, function, position, said, behind, resolve, 0)

    def _passed(
        self,
        home: FileFacts,
        function: str,
        position: int,
        said: str,
        behind: str,
        resolve: Resolve,
        hops: int,
    ) -> list[KnobLink]:
        callers = [
            c
            for c in self._calls_of(function.rsplit(".", 1)[-1])
            if self._reaches(c[0], c[2], home, function)
        ]
        if not callers or len(callers) > _MAX_CALLERS or hops >= _MAX_HOPS:
            return []
        out: list[KnobLink] = []
        for facts, caller, _, line, given in callers:
            passed = given.get(position)
            if passed is None:
                continue
            name, param = passed
            if name.startswith("not "):
                continue  # a truth turned (`link.value_flow`): no size
            if param >= 0 and caller is not None:
                out.extend(self._passed(facts, caller, param, said, behind, resolve, hops + 1))
                continue
            if "." not in name:
                continue
            via = f"{said}; {facts.path}:{line} passes `{name}`"
            # the size the group is built of, not the value read: no `same_value`
            out.extend(
                msgspec.structs.replace(
                    k, behind=behind, via=via, same_value=False, group_size=True
                )
                for k in resolve(name, facts)
                if k.same_value and k.sets is None and not k.json_key
            )
        return out

    def _reaches(self, facts: FileFacts, called: str, home: FileFacts, function: str) -> bool:
        """Whether `called` as `facts` writes it is `home`'s `function`: a call in its own
        module, or of the name imported from it, at the module's top or in a function (as
        `_accessor` follows an accessor)."""
        if facts is home and "." not in called:
            return True
        root, _, rest = called.partition(".")
        if root in facts.imports:
            qualname = self._names.qualify(facts, called)
        elif root in facts.local_imports:
            imported = facts.local_imports[root]
            qualname = f"{imported}.{rest}" if rest else imported
        else:
            return False
        found = self._names.lookup(qualname)
        return found is not None and found[0] is home and found[1] == function
