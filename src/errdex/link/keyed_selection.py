"""Selection by a dict keyed by a setting's values: another value picks other code.

`_LINEAR_BACKEND_KERNEL_MAP = {"flashinfer_trtllm": {FlashInferTrtllmMxfp8Kernel, ...},
"flashinfer_cutlass": {FlashInferCutlassMxfp8Kernel, ...}, ...}` and `linear_backend:
LinearBackend` (an arguments class's field, `LinearBackend = Literal["auto", "cutlass",
...]`): a check in a class the dict names runs because the setting holds that key, and
another key avoids it. Linked only when every key of the dict is a value of the alias, the
field's annotation cannot be None (a setting whose None default lets another source decide,
a checkpoint's quantization, is no choice the user makes), every word of the field's name is
in the dict's (`linear_backend`, `_LINEAR_BACKEND_KERNEL_MAP`), one key alone names the
site's class, and the other keys name a class that a candidate list tries beside the site's
(the same platform's list for the same kind of layer: another platform's backend would fall
back to this one) and that does not make the same check.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

from errdex.facts import FileFacts, KnobKind
from errdex.link.knobs import KnobIndex
from errdex.link.resolve import Namespace
from errdex.linked_facts import SelectionLink

_MAX_OTHERS = 3
_Target = tuple[str, str]  # (module, class qualname)
# (table, key, flag, the dict's file, key → the classes it names)
_Entry = tuple[str, str, str, FileFacts, dict[str, list[_Target]]]
_ANNOTATION_WORD = re.compile(r"[A-Za-z_][\w.]*")
# what a message says of a limit of the code: "requires bfloat16 activations", "only
# supports symmetric quantization", "is not supported by marlin", "expects weight shape"
_REQUIREMENT = re.compile(
    r"\b(?:requires?|required|supports?|supported|only|expects?|must)\b", re.I
)


def _words(name: str) -> set[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return {w.lower() for w in spaced.split("_") if w}


class KeyedSelections:
    """The classes each setting-keyed dict of the version names, by class."""

    def __init__(self, files: list[FileFacts], names: Namespace, knobs: KnobIndex) -> None:
        self._names = names
        aliases: dict[str, set[str]] = defaultdict(set)
        for facts in files:
            if facts.error is None:
                for alias, values in facts.literals.items():
                    aliases[alias].update(values)
        typed: dict[str, list[str]] = defaultdict(list)  # alias → fields typed with it
        if aliases:
            for facts in files:
                for cls in facts.classes if facts.error is None else ():
                    for field, annotation in cls.fields.items():
                        parts = {w.split(".")[-1] for w in _ANNOTATION_WORD.findall(annotation)}
                        if parts & {"None", "Optional", "Any"}:
                            continue
                        for alias in parts & aliases.keys():
                            if field not in typed[alias]:
                                typed[alias].append(field)
        self._by_class: dict[_Target, list[_Entry]] = defaultdict(list)
        # class → the classes a candidate list tries beside it (a platform's priority list)
        self._together: dict[_Target, set[_Target]] = defaultdict(set)
        self._after: dict[_Target, set[_Target]] = defaultdict(set)  # tried after it
        for facts in files:
            if facts.error is not None:
                continue
            for table, keyed in facts.class_tables.items():
                flag = self._flag(table, set(keyed), aliases, typed, knobs)
                if flag is None:
                    continue
                targets = {
                    key: [t for n in named if (t := self._target(facts, n)) is not None]
                    for key, named in keyed.items()
                }
                for key, found in targets.items():
                    for target in found:
                        self._by_class[target].append((table, key, flag, facts, targets))
        if self._by_class:
            for facts in files:
                for choice in facts.choices if facts.error is None else ():
                    order = [t for i in choice.items if (t := self._target(facts, i))]
                    for at, target in enumerate(order):
                        if target in self._by_class:
                            self._together[target].update(order)
                            self._together[target].discard(target)
                            self._after[target].update(order[at + 1 :])

    def keys_class(self, module: str, class_name: str | None) -> bool:
        """Whether a key of a table names the class (`selections` finds none otherwise)."""
        return class_name is not None and bool(
            self._by_class.get((module, class_name.split(".")[0]))
        )

    def selections(
        self,
        facts: FileFacts,
        class_name: str | None,
        message: str | None,
        same: Callable[[str], bool],
    ) -> list[SelectionLink]:
        """The settings whose key names the site's class, with the other keys that name a
        class of its kind none of which makes the same check (`same(module)`). Only for a
        check whose message says what this code requires or supports: an assert with no
        message (`isinstance(x, BasevLLMParameter)`) is an invariant every key's code
        keeps, not a limit of this one, and hitting it is worth reporting."""
        if class_name is None or message is None:
            return []
        target = (facts.module, class_name.split(".")[0])
        # the table first: most sites' classes are in none, and the pattern is read per site
        entries = self._by_class.get(target, [])
        if not entries or not _REQUIREMENT.search(message):
            return []
        out: list[SelectionLink] = []
        beside = self._together.get(target, set())
        for table, key, flag, where, targets in entries:
            if sum(e[0] == table for e in entries) > 1:
                continue  # several keys run it: which one the user gave is unsaid
            others = [
                other
                for other, found in targets.items()
                if target not in found
                and any(t in beside and not self._same(t, target, same) for t in found)
            ]
            # those a list tries after it first: picked by default, this one ran because
            # those before it could not take the layer
            after = self._after.get(target, set())
            others.sort(key=lambda o: not any(t in after for t in targets[o]))
            if others:
                out.append(
                    SelectionLink(
                        setting=flag,
                        kind=KnobKind.FLAG,
                        how="choose",
                        value=key,
                        others=tuple(others[:_MAX_OTHERS]),
                        registry=f"{table}[{key!r}]",
                        file=where.path,
                    )
                )
        return out

    def _flag(
        self,
        table: str,
        keys: set[str],
        aliases: dict[str, set[str]],
        typed: dict[str, list[str]],
        knobs: KnobIndex,
    ) -> str | None:
        """The one flag whose field is typed with an alias holding every key, and whose
        name shares the most words (at least one) with the dict's."""
        found: list[tuple[int, str]] = []
        for alias, values in aliases.items():
            if not keys <= values:
                continue
            for field in typed.get(alias, []):
                words = _words(field)
                shared = len(words) if words <= _words(table) else 0
                flag = knobs.field_flag(field) if shared else None
                if flag is not None:
                    found.append((shared, flag.name))
        if not found:
            return None
        best = max(s for s, _ in found)
        names = {n for s, n in found if s == best}
        return names.pop() if len(names) == 1 else None

    def _same(self, other: _Target, target: _Target, same: Callable[[str], bool]) -> bool:
        """Whether the class `other` makes the site's check: it derives from the site's class
        (through any of its bases the version defines, or one written with its name), or (in
        another module) that module makes the check (`same`). Another class of the site's
        own module runs its own methods."""
        if target[1].split(".")[-1] in self._bases(other) or self._derives(other, target):
            return True
        return other[0] != target[0] and same(other[0])

    def _derives(self, other: _Target, target: _Target) -> bool:
        facts = self._names.modules.get(other[0])
        if facts is None:
            return False
        line = self._names.class_and_bases(facts, other[1])
        return any((c.file.module, c.fact.qualname) == target for c in line)

    def _target(self, facts: FileFacts, name: str) -> _Target | None:
        return class_target(self._names, facts, name)

    def _bases(self, target: _Target) -> set[str]:
        """The bases a class is written with, by their last name."""
        facts = self._names.modules.get(target[0])
        if facts is None:
            return set()
        for cls in facts.classes:
            if cls.qualname == target[1]:
                return {b.split("[")[0].split(".")[-1] for b in cls.bases} - {"object"}
        return set()


def class_target(names: Namespace, facts: FileFacts, name: str) -> _Target | None:
    """(module, qualname) of the version's class `name` names in `facts`, if it is one."""
    found = names.lookup(names.qualify(facts, name))
    if found is None:
        return None
    where, qualname = found
    if not any(c.qualname == qualname for c in where.classes):
        return None
    return where.module, qualname
