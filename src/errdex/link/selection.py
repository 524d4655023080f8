"""Selection: the settings whose value picks the code a site sits in.

Much of a large codebase runs only when a setting chose it: a backend class named by a
member of an enum (`--attention-backend CUTLASS_MLA` names `CutlassMLABackend` of the site's
file), a kernel class a platform's list tries in turn unless a variable takes it out by name
(`if kernel.__name__ in envs.DISABLED_KERNELS: continue`). A check inside such code tests
state no user sets (a tensor's shape, an internal op's argument), yet a user escapes it by
picking other code: another member, the one that stands in for it in the same lists, or
the class taken out of the selection.

A member no candidate list holds, that no code writes as a value nor imports the class of
(`--attention-backend HPC_ATTN`), runs only when the user names it: leaving the setting out
avoids it as well, and the members of its kind that lists hold stand in for it.

Only what the code states is linked: the member's class must be defined in the site's
module (or the filter must sit beside a list naming the site's class), and the setting must
be one a user passes (a field of an arguments class typed with the enum, or the variable or
flag the filter reads).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping

import msgspec

from errdex.facts import ChoiceList, FileFacts, KnobKind, NameFilter
from errdex.lazy_re import lazy_compile
from errdex.link.keyed_selection import KeyedSelections, class_target
from errdex.link.knobs import KnobIndex
from errdex.link.loaded_registry import LoadedRegistries
from errdex.link.name_registry import NameRegistries
from errdex.link.resolve import Namespace
from errdex.linked_facts import KnobLink, SelectionLink

_MAX_OTHERS = 3
# an enum member as a candidate list writes it: `Backend.FLASH`
_MEMBER = lazy_compile(r"(\w+)\.(\w+)")

_Target = tuple[str, str]  # (module, class qualname)


# A class's own name in a message (`CutlassMLAImpl does not support ...`): what differs
# between the same check made by each of several backends.
_CLASS_WORD = lazy_compile(r"\b_?[A-Z][a-z0-9]*[A-Z]\w*")


def _check_words(text: str) -> str:
    """A message's literal text without class names: the same check in other code."""
    return " ".join(_CLASS_WORD.sub("", text).split())


def _words(name: str) -> set[str]:
    """The words of a name: `AttentionBackendEnum` and `attention_backend` share two."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return {w.lower() for w in spaced.split("_") if w}


def _shared_words(enum: str, field: str) -> int:
    return len(_words(enum) & _words(field))


class _Check(msgspec.Struct, frozen=True):
    """What makes other code run the same check: its message's words (class names aside),
    and the class and method holding it."""

    words: str | None
    method: tuple[str, str] | None  # (class qualname, method name)


def _method(class_name: str | None, function: str | None) -> tuple[str, str] | None:
    """(class, method) when `function` is a method defined right in `class_name`."""
    if class_name is None or function is None or not function.startswith(f"{class_name}."):
        return None
    method = function[len(class_name) + 1 :]
    return (class_name, method) if method and "." not in method else None


class SelectionIndex:
    """The version's registries, candidate lists and name filters, by the code they pick."""

    def __init__(
        self,
        files: list[FileFacts],
        names: Namespace,
        knobs: KnobIndex,
        texts: Mapping[str, bytes] | None = None,
    ) -> None:
        self._names = names
        self._knobs = knobs
        # module → (enum name, member, the enum's file) for each member naming a class there
        self._members: dict[str, list[tuple[str, str, FileFacts]]] = defaultdict(list)
        self._member_module: dict[tuple[str, str], str] = {}  # (enum, member) → its module
        self._member_class: dict[tuple[str, str], _Target] = {}  # (enum, member) → its class
        self._lists: dict[str, list[tuple[ChoiceList, FileFacts]]] = defaultdict(list)
        # (module, class) → the filters that take it out, with the lists naming it there
        self._excluded: dict[_Target, list[tuple[NameFilter, FileFacts, list[str], int | None]]]
        self._excluded = {}
        self._typed: dict[str, list[str]] = {}  # enum → the fields typed with it
        # members some code picks (writes as a value), and the classes another module imports
        self._picked: set[str] = set()
        self._imported: set[str] = set()
        self._module_checks: dict[str, frozenset[str]] = {}  # module → its messages' words
        enums: set[str] = set()
        for facts in files:
            if facts.error is not None:
                continue
            for enum, members in facts.enums.items():
                enums.add(enum)
                for member, named in members.items():
                    target = self._class_of(facts, named)
                    if target is not None:
                        module = target[0]
                        self._members[module].append((enum, member, facts))
                        self._member_module[(enum, member)] = module
                        self._member_class[(enum, member)] = target
            for choice in facts.choices:
                for item in choice.items:
                    self._lists[item].append((choice, facts))
            if facts.name_filters:
                self._add_filters(facts)
        if enums:
            self._add_typed_fields(files, enums)
            self._add_picks(files)
        self._keyed = KeyedSelections(files, names, knobs)
        self._named = NameRegistries(files, names, knobs)
        self._loaded = LoadedRegistries(files, names, knobs, texts)

    def selections(
        self,
        facts: FileFacts,
        class_name: str | None,
        message: str | None = None,
        function: str | None = None,
    ) -> list[SelectionLink]:
        """The settings that pick the code of a site in `facts` (in class `class_name`, in
        its method `function`), with the other code that stands in for it; none of which
        makes the same check (the literal text of `message`, class names aside): every MLA
        backend refuses `alibi_slopes` with its own class name in the message), nor runs the
        site's method itself through a subclass that does not override it."""
        out = self._named.selections(facts, class_name, function)
        out.extend(self._loaded.selections(facts))
        top = class_name.split(".")[0] if class_name is not None else None
        excluded = self._excluded.get((facts.module, top), []) if top is not None else []
        members = self._members.get(facts.module, [])
        if not excluded and not members and not self._keyed.keys_class(facts.module, class_name):
            return out  # most sites: nothing picks their code (and `same` is not worked out)
        same = _Check(_check_words(message) if message else None, _method(class_name, function))
        if top is not None:
            for rule, where, listed, line in excluded:
                others = [
                    o
                    for o in listed
                    if not self._checks(self._class_module(where, o), same, facts.module)
                ]
                link = self._exclusion(rule, where, top, others, line)
                if link is not None:
                    out.append(link)
        for enum, member, where in members:
            out.extend(self._choices(enum, member, where, same, facts.module))
        out.extend(
            self._keyed.selections(
                facts, class_name, message, lambda module: self._checks(module, same, facts.module)
            )
        )
        return out

    def _checks(self, module: str | None, check: _Check, home: str) -> bool:
        """Whether code of `module` makes the same check as the site of module `home`: a
        site with the same message, or a class that inherits the site's method as it is
        (`AiterTritonMLAImpl(AiterMLAImpl)` in another file runs `AiterMLAImpl`'s checks)."""
        if module is None:
            return False
        return self._same_message(module, check.words) or (
            check.method is not None and self._inherits(module, home, *check.method)
        )

    def _inherits(self, module: str, home: str, class_name: str, method: str) -> bool:
        """Whether a class of `module` runs `home`'s `class_name.method`: it resolves the
        method to that very one, or one of its bases is unknown to the version but named as
        the site's class is (nothing then says it overrides the method)."""
        facts = self._names.modules.get(module)
        if facts is None or module == home:
            return False
        target = (home, f"{class_name}.{method}")
        short = class_name.split(".")[-1]
        for cls in facts.classes:
            if self._names.method_owner(facts, cls.qualname, method) == target:
                return True
            for base in cls.bases:
                written = base.split("[")[0]
                if written.split(".")[-1] == short and (
                    self._names.resolve_class(facts, written) is None
                ):
                    return True
        return False

    def _same_message(self, module: str, words: str | None) -> bool:
        """Whether a site of `module` makes the check whose message has `words`."""
        if not words:
            return False
        if module not in self._module_checks:
            facts = self._names.modules.get(module)
            self._module_checks[module] = frozenset(
                _check_words(site.message.literal_text)
                for site in (facts.sites if facts is not None else ())
                if site.message is not None
            )
        return words in self._module_checks[module]

    def _class_module(self, facts: FileFacts, name: str) -> str | None:
        target = self._class_target(facts, name)
        return target[0] if target is not None else None

    # -- enum members ----------------------------------------------------------------------

    def _class_of(self, facts: FileFacts, named: str) -> _Target | None:
        """(module, qualname) of the version's class an enum member names."""
        qualname = named if "." in named and named.split(".")[0] not in facts.imports else None
        if qualname is None:
            qualname = self._names.qualify(facts, named)
        found = self._names.lookup(qualname)
        if found is None:
            return None
        where, name = found
        return (where.module, name) if any(c.qualname == name for c in where.classes) else None

    def _derives(self, other: _Target | None, own: _Target | None, same: _Check) -> bool:
        """Whether the class `other` (another member's) derives from `own`, the class the
        site's member names, and so runs its code: `AiterTritonMLABackend(AiterMLABackend)`
        inherits the builder class `get_builder_cls` returns, and the builder's check with
        it. Only a method of the line it overrides is other code: when the site is in a
        method of one of the classes it derives from, it avoids the check by defining that
        method again (`_inherits` then finds its own); elsewhere in the site's module (a
        builder, a helper the base calls), nothing says the subclass leaves that path."""
        if other is None or own is None or other == own:
            return False
        facts = self._names.modules.get(other[0])
        if facts is None:
            return False
        line = [
            (c.file.module, c.fact.qualname) for c in self._names.class_and_bases(facts, other[1])
        ]
        if own not in line[1:]:
            return False
        if same.method is not None and (own[0], same.method[0]) in line[1:]:
            owner = self._names.method_owner(facts, other[1], same.method[1])
            return owner == (own[0], f"{same.method[0]}.{same.method[1]}")
        return True

    def _add_typed_fields(self, files: list[FileFacts], enums: set[str]) -> None:
        words = re.compile(r"\b(" + "|".join(sorted(map(re.escape, enums))) + r")\b")
        for facts in files:
            for cls in facts.classes:
                for field, annotation in cls.fields.items():
                    for enum in set(words.findall(annotation)):
                        self._typed.setdefault(enum, [])
                        if field not in self._typed[enum]:
                            self._typed[enum].append(field)

    def _add_picks(self, files: list[FileFacts]) -> None:
        """The members some code writes as a value, and the member classes a module other
        than their own imports (a model that hands out its own backend class)."""
        classes = {f"{m}.{c}": m for m, c in self._member_class.values()}
        for facts in files:
            if facts.error is not None:
                continue
            self._picked.update(facts.member_picks)
            for target in (*facts.imports.values(), *facts.local_imports.values()):
                if classes.get(target, facts.module) != facts.module:
                    self._imported.add(target)

    def _given_only(self, enum: str, member: str) -> bool:
        """Whether only the setting picks `member`: no list holds it, no code writes it as a
        value, and no other module imports its class."""
        target = self._member_class.get((enum, member))
        return (
            target is not None
            and not self._lists.get(f"{enum}.{member}")
            and f"{enum}.{member}" not in self._picked
            and f"{target[0]}.{target[1]}" not in self._imported
        )

    def _choices(
        self, enum: str, member: str, where: FileFacts, same: _Check, home: str
    ) -> list[SelectionLink]:
        others, listed = self._alternatives(enum, member, same, home)
        given = not others and self._given_only(enum, member)
        if given:
            others = self._listed_of_kind(enum, member, same, home)
        elif not others:
            return []
        out: list[SelectionLink] = []
        flags = [
            (field, flag)
            for field in self._typed.get(enum, [])
            if (flag := self._knobs.field_flag(field)) is not None
        ]
        # Several flags may take the enum (the model's attention and a multimodal encoder's):
        # the one named most like the enum is the one it is for.
        best = max((_shared_words(enum, field) for field, _ in flags), default=0)
        for field, flag in flags:
            if _shared_words(enum, field) < best:
                continue
            out.append(
                SelectionLink(
                    setting=flag.name,
                    kind=KnobKind.FLAG,
                    how="choose",
                    value=member,
                    others=others,
                    registry=f"{enum}.{member}",
                    file=where.path,
                    listed=listed,
                    call=flag.call,
                    given=given,
                )
            )
        return out

    def _listed_of_kind(self, enum: str, member: str, same: _Check, home: str) -> tuple[str, ...]:
        """What stands in for `member`, which no list holds: the members of its kind (the
        words after the first alike: `HPC_ATTN` and `FLASH_ATTN`; a one-word name says no
        kind) that a list holds and that do not make the same check, those in most lists
        first."""
        kind = member.split("_")[1:]
        if not kind:
            return ()
        own = self._member_module.get((enum, member))
        own_class = self._member_class.get((enum, member))
        found = [
            other
            for (named, other), module in self._member_module.items()
            if named == enum
            and other.split("_")[1:] == kind
            and self._lists.get(f"{enum}.{other}")
            and module != own
            and not self._checks(module, same, home)
            and not self._derives(self._member_class.get((enum, other)), own_class, same)
        ]
        found.sort(key=lambda m: -len(self._lists[f"{enum}.{m}"]))
        return tuple(found[:_MAX_OTHERS])

    def _alternatives(
        self, enum: str, member: str, same: _Check, home: str
    ) -> tuple[tuple[str, ...], str | None]:
        """The members that stand in for `member`: listed with it in every candidate list
        that holds it (a platform's priority list). A list holding a member that names no
        class (`TORCH_SDPA = ""`, kept for an encoder) is of another use, and a member
        naming a class of the same module would run the same code."""
        own = self._member_module.get((enum, member))
        own_class = self._member_class.get((enum, member))
        counts: Counter[str] = Counter()
        first: dict[str, int] = {}
        listed: str | None = None
        lists = 0
        for choice, facts in self._lists.get(f"{enum}.{member}", []):
            found = [_MEMBER.fullmatch(item) for item in choice.items]
            others = [m.group(2) for m in found if m is not None and m.group(1) == enum]
            if len(others) != len(choice.items) or any(
                (enum, other) not in self._member_module for other in others
            ):
                continue
            listed = listed or f"{facts.path}:{choice.line}"
            lists += 1
            for other in others:
                module = self._member_module[(enum, other)]
                if (
                    other != member
                    and module != own
                    and not self._checks(module, same, home)
                    and not self._derives(self._member_class.get((enum, other)), own_class, same)
                ):
                    counts[other] += 1
                    first.setdefault(other, len(first))
        # Only those listed wherever it is (each list is a platform's or a device's): one
        # missing from a list may not run where that list applies. Those in most lists
        # (what runs most widely) first.
        # A member's name after its first word says what kind of code it is (`_MLA`,
        # `_SPARSE`, `_SM120`): one that does not say as much is another kind (a dense
        # backend cannot serve a sparse model).
        kind = member.split("_")[1:]
        ranked = sorted(
            (m for m in counts if counts[m] == lists and all(k in m for k in kind)),
            key=lambda m: (-len(self._lists.get(f"{enum}.{m}", ())), first[m]),
        )
        return tuple(ranked[:_MAX_OTHERS]), listed

    # -- classes taken out by name ---------------------------------------------------------

    def _add_filters(self, facts: FileFacts) -> None:
        """Each class a filter of `facts` can take out: the one it names, or those the
        file's candidate lists name when it filters by any class's name."""
        classes: dict[_Target, list[str]] = defaultdict(list)
        first: dict[_Target, int] = {}  # the line of the first list naming the class
        for choice in facts.choices:
            if _MEMBER.fullmatch(choice.items[0]):
                continue  # enum members, not classes
            for item in choice.items:
                target = self._class_target(facts, item)
                if target is not None:
                    classes[target].extend(i for i in choice.items if i != item)
                    first.setdefault(target, choice.line)
        for rule in facts.name_filters:
            if rule.name is not None:
                target = self._class_target(facts, rule.name)
                if target is not None:
                    self._excluded.setdefault(target, []).append((rule, facts, [], None))
                continue
            for target, listed in classes.items():
                kept = self._excluded.setdefault(target, [])
                if not any(r.setting == rule.setting and f is facts for r, f, _, _ in kept):
                    kept.append((rule, facts, list(dict.fromkeys(listed)), first[target]))

    def _class_target(self, facts: FileFacts, name: str) -> _Target | None:
        return class_target(self._names, facts, name)

    def _exclusion(
        self, rule: NameFilter, where: FileFacts, name: str, listed: list[str], line: int | None
    ) -> SelectionLink | None:
        knob = self._setting(rule.setting, where)
        if knob is None:
            return None
        separator = None
        if knob.reads and (split := re.search(r"\.split\(\s*[\"']([^\"']+)[\"']", knob.reads)):
            separator = split.group(1)
        return SelectionLink(
            setting=knob.name,
            kind=knob.kind,
            how="exclude",
            value=name,
            others=tuple(listed[:_MAX_OTHERS]),
            registry=None,
            file=where.path,
            line=rule.line,
            listed=f"line {line}" if line is not None else None,
            separator=separator,
            call=knob.call,
        )

    def _setting(self, dotted: str, where: FileFacts) -> KnobLink | None:
        for knob in self._knobs.knobs(where, None, (), (), names=[dotted]):
            if knob.kind in (KnobKind.ENV, KnobKind.FLAG) and knob.same_value:
                return knob
        return None
