"""A size read through an accessor of a module global, followed to what its callers pass.

`get_tensor_model_parallel_world_size()` returns `get_tp_group().world_size`;
`get_tp_group()` returns `_TP`; `initialize_model_parallel` builds `_TP` from its parameter
`tensor_model_parallel_size` (`extract.group_sizes`); its callers pass their own parameter
on, until one passes a name (`parallel_config.tensor_parallel_size`), whose settings the
knob index knows. Only a parameter every caller found passes the same way is followed.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from errdex.facts import FileFacts
from errdex.link.resolve import Namespace
from errdex.linked_facts import KnobLink

_MAX_HOPS = 4  # callers passing a parameter on, followed up
_MAX_CALLERS = 6

# (caller's facts, its function when known, the name as called, line, position → (the
# name passed, the caller's parameter passed on as is, else -1))
_Call = tuple[FileFacts, str | None, str, int, dict[int, tuple[str, int]]]
Resolve = Callable[[str, FileFacts], tuple[KnobLink, ...]]


class GroupSizes:
    """The accessors, the globals set from a parameter and the calls passing names."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._calls: dict[str, list[_Call]] = {}
        self._has_sets = False
        for facts in files:
            if facts.error is not None:
                continue
            self._has_sets = self._has_sets or bool(facts.global_sets)
            for call in facts.call_sites:
                given = {int(k): (n, p) for k, n, p in call.passes if k.isdigit()}
                if given:
                    called = f"{call.receiver}.{call.callee}" if call.receiver else call.callee
                    self._calls.setdefault(call.callee, []).append(
                        (facts, call.function, called, call.line, given)
                    )
            for called, line, args in facts.name_calls:
                given = {i: (a, -1) for i, a in enumerate(args)}
                callee = called.rsplit(".", 1)[-1]
                self._calls.setdefault(callee, []).append((facts, None, called, line, given))

    def knobs(self, dotted: str, facts: FileFacts, resolve: Resolve) -> list[KnobLink]:
        """The settings behind the call `dotted()` of a group accessor, as `facts` reads it."""
        if not self._has_sets or dotted not in facts.imports:
            return []
        found = self._names.lookup(self._names.qualify(facts, dotted))
        if found is None:
            return []
        home, name = found
        returned = home.group_accessors.get(name)
        if returned is None or "()." not in returned:
            return []
        inner, _, attr = returned.partition("().")
        group = home.group_accessors.get(inner)
        if group is None or "(" in group:
            return []
        set_from = home.global_sets.get(group)
        if set_from is None:
            return []
        function, param, position = set_from
        said = (
            f"`{dotted}()` ({home.path}) returns `{returned}`, the `{attr}` of `{group}`, which "
            f"`{function}` builds from its parameter `{param}`"
        )
        return self._passed(home, function, position, said, f"{dotted}()", resolve, 0)

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
            for c in self._calls.get(function.rsplit(".", 1)[-1], ())
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
        module, or of the name imported from it."""
        if facts is home and "." not in called:
            return True
        if called.partition(".")[0] not in facts.imports:
            return False
        found = self._names.lookup(self._names.qualify(facts, called))
        return found is not None and found[0] is home and found[1] == function
