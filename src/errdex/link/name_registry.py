"""Selection by a plugin's registered name: a `str` flag names a class of a registry.

vllm imports its parsers lazily from a dict of names: `_REASONING_PARSERS_TO_REGISTER =
{"deepseek_r1": ("deepseek_r1_reasoning_parser", "DeepSeekR1ReasoningParser"), ...}`, the
files in the dict's own package, and `--reasoning-parser deepseek_r1` picks the class. A check
in that class's constructor (the model's tokenizer must have a `<think>` token) runs only
when the user's flag names it, so the flag is the way out: another registered name, the one
made for the user's model, or none. Which name fits which model no list says, so none is
offered as a stand-in: the page names the registered ones. Only a class that no other module
imports and whose subclasses are registered names that run its very constructor: a parser
another one builds inside itself, or derives from, runs the check for that one's names too,
which the registry does not say.

The flag is the arguments field typed `str` whose name ends with the word the registered
classes' names end with (`Parser`), that shares another word with the dict's name
(`reasoning_parser`, `tool_call_parser`; not `tool_parser_plugin`), and whose words are
most of all the dict's. A flag that the version refuses without this one
(`if args.enable_auto_tool_choice and not args.tool_call_parser: raise`) goes with it: the
command the fix starts from carries both (valid together, and vllm builds no tool parser
without `--enable-auto-tool-choice`), and leaving this one out leaves both out (the other
alone is refused).
"""

from __future__ import annotations

import ast
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from errdex.facts import FileFacts, KnobKind, SiteKind
from errdex.link.knobs import KnobIndex
from errdex.link.resolve import Namespace
from errdex.linked_facts import SelectionLink

_Target = tuple[str, str]  # (module, class qualname)


class _Registry(NamedTuple):
    """A registry of names a flag picks from."""

    module: str  # the dict's module: two packages may hold dicts of the same name
    table: str  # the dict's name
    flag: str
    along: tuple[str, ...]  # the yes/no flags the version refuses without `flag`
    file: str  # the dict's file
    names: tuple[str, ...]  # every name it registers


_STR_WORDS = frozenset({"str", "None", "Optional"})
_ANNOTATION_WORD = re.compile(r"[A-Za-z_]\w*")
# a class name's words: `DeepSeekR1ReasoningParser` ends with `Parser`
_CAMEL_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")
_CONSTRUCTOR = "__init__"


def _words(name: str) -> list[str]:
    """A name's words, each as its singular: `_TOOL_PARSERS_TO_REGISTER` → tool, parser,
    to, register."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [_singular(w.lower()) for w in spaced.split("_") if w]


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


class NameRegistries:
    """The classes each name-keyed registry of the version names, with the flag naming them."""

    def __init__(self, files: list[FileFacts], names: Namespace, knobs: KnobIndex) -> None:
        self._names = names
        # a registered class, or one of its bases → (registry, name, the registered class)
        self._by_line: dict[_Target, list[tuple[_Registry, str, _Target]]] = defaultdict(list)
        # a class of those lines → the classes of the version deriving from it, itself too
        self._derived: dict[_Target, set[_Target]] = {}
        self._imported: set[str] = set()  # those another module imports: "module.Class"
        tables = [(f, t, k) for f in files if f.error is None for t, k in f.name_tables.items()]
        if not tables:
            return
        fields = _str_fields(files)
        # (the dict's file, the dict, its names, their classes, (flag, field)) of each
        # registry a flag names
        flagged: list[_Flagged] = []
        for facts, table, keyed in tables:
            package = (
                facts.module
                if facts.path.endswith("__init__.py")
                else (facts.module.rpartition(".")[0])
            )
            targets = {
                key: target
                for key, (file, name) in keyed.items()
                if (target := self._registered(file, package, name)) is not None
            }
            flag = _flag(table, targets.values(), fields, knobs)
            if flag is not None:
                flagged.append(_Flagged(facts, table, tuple(keyed), targets, *flag))
        required = _required(files, {f.field for f in flagged}) if flagged else {}
        for found in flagged:
            along = (
                link.name
                for other in required.get(found.field, ())
                if (link := knobs.field_flag(other)) is not None
            )
            registry = _Registry(
                module=found.facts.module,
                table=found.table,
                flag=found.flag,
                along=tuple(dict.fromkeys(along)),
                file=found.facts.path,
                names=found.names,
            )
            for key, target in found.targets.items():
                for cls in self._names.class_and_bases(names.modules[target[0]], target[1]):
                    self._by_line[(cls.file.module, cls.fact.qualname)].append(
                        (registry, key, target)
                    )
        if self._by_line:
            self._derived = _derived(files, names, set(self._by_line))
            self._imported = _imported(
                files, {f"{m}.{c}" for group in self._derived.values() for m, c in group}
            )

    def _given_only(self, site: _Target, own: tuple[str, str], registered: set[_Target]) -> bool:
        """Whether only the names of the registry run the constructor `own` of the class
        `site`: every class deriving from it (itself too) is registered and runs that very
        constructor, and no module but its own imports one (a parser another one builds
        inside, or derives from, runs the check for that one's name too)."""
        for target in self._derived.get(site, {site}):
            if target not in registered or f"{target[0]}.{target[1]}" in self._imported:
                return False
            facts = self._names.modules[target[0]]
            if self._names.method_owner(facts, target[1], _CONSTRUCTOR) != own:
                return False
        return True

    def _registered(self, module: str, package: str, name: str) -> _Target | None:
        """The class `name` of the module the dict names: as written (a full module
        path), else in the dict's own package (`think_parser` beside the dict)."""
        for candidate in (module, f"{package}.{module}"):
            facts = self._names.modules.get(candidate)
            if facts is not None and any(c.qualname == name for c in facts.classes):
                return candidate, name
        return None

    def selections(
        self, facts: FileFacts, class_name: str | None, function: str | None
    ) -> list[SelectionLink]:
        """The flag whose registered names pick the class of a site in its constructor
        (`class_name.__init__`, built when the flag names it, at the server's start): a
        registered class whose subclasses, if any, are registered and inherit that very
        constructor, and that no other module imports."""
        if class_name is None or function != f"{class_name}.{_CONSTRUCTOR}":
            return []
        entries = self._by_line.get((facts.module, class_name))
        if not entries:
            return []
        own = (facts.module, function)
        registered = {target for _, _, target in entries}
        if not self._given_only((facts.module, class_name), own, registered):
            return []
        # each registry's names picking the class, in the dict's order
        by_registry: dict[_Registry, list[str]] = defaultdict(list)
        for registry, key, _ in entries:
            by_registry[registry].append(key)
        links = []
        for registry, keys in by_registry.items():
            links.append(
                SelectionLink(
                    setting=registry.flag,
                    kind=KnobKind.FLAG,
                    how="name",
                    value=keys[0],
                    aliases=tuple(keys[1:]),
                    registry=f"{registry.table}[{keys[0]!r}]",
                    file=registry.file,
                    given=True,
                    registered=registry.names,
                    along=registry.along,
                )
            )
        return links


class _Flagged(NamedTuple):
    """A registry a flag names, before the flags given with it are known."""

    facts: FileFacts  # the dict's file
    table: str
    names: tuple[str, ...]
    targets: dict[str, _Target]  # each name whose class the version holds → that class
    flag: str
    field: str


def _derived(
    files: list[FileFacts], names: Namespace, wanted: set[_Target]
) -> dict[_Target, set[_Target]]:
    """Each class of `wanted` → the classes of the version deriving from it, itself too.
    Only a class one of whose bases is written with the name of a wanted one is followed
    up its bases."""
    short = {qualname.split(".")[-1] for _, qualname in wanted}
    found: dict[_Target, set[_Target]] = {target: {target} for target in wanted}
    for facts in files:
        for cls in facts.classes if facts.error is None else ():
            if not any(b.split("[")[0].split(".")[-1] in short for b in cls.bases):
                continue
            target = (facts.module, cls.qualname)
            for base in names.class_and_bases(facts, cls.qualname):
                line = (base.file.module, base.fact.qualname)
                if line in found:
                    found[line].add(target)
    return found


def _imported(files: list[FileFacts], wanted: set[str]) -> set[str]:
    """The classes of `wanted` ("module.Class") a module other than their own imports."""
    found: set[str] = set()
    for facts in files:
        if facts.error is not None:
            continue
        for target in (*facts.imports.values(), *facts.local_imports.values()):
            if target in wanted and not target.startswith(f"{facts.module}."):
                found.add(target)
    return found


def _str_fields(files: list[FileFacts]) -> dict[str, list[str]]:
    """The arguments fields typed `str` (or `str | None`), each once, with their words."""
    found: dict[str, list[str]] = {}
    for facts in files:
        for cls in facts.classes if facts.error is None else ():
            for field, annotation in cls.fields.items():
                if field in found or "str" not in annotation:
                    continue
                if set(_ANNOTATION_WORD.findall(annotation)) <= _STR_WORDS:
                    found[field] = _words(field)
    return found


def _flag(
    table: str, targets: Iterable[_Target], fields: dict[str, list[str]], knobs: KnobIndex
) -> tuple[str, str] | None:
    """(flag, field) naming the registry's classes: the field ends with the word most of
    their names end with and shares another with the dict's name; of those, the one with
    the most words of the dict's and the fewest others, when it is one flag."""
    ends = Counter(
        _singular(_CAMEL_WORD.findall(target[1])[-1].lower())
        for target in targets
        if _CAMEL_WORD.findall(target[1])
    )
    if not ends:
        return None
    kind = ends.most_common(1)[0][0]
    own = set(_words(table))
    scored: list[tuple[int, str, str]] = []
    for field, words in fields.items():
        if words[-1:] != [kind] or not (set(words[:-1]) & own):
            continue
        flag = knobs.field_flag(field)
        if flag is not None:
            shared = set(words) & own
            scored.append((len(shared) - len(set(words) - shared), flag.name, field))
    if not scored:
        return None
    best = max(s for s, _, _ in scored)
    chosen = {(n, f) for s, n, f in scored if s == best}
    if len({n for n, _ in chosen}) != 1:
        return None
    return sorted(chosen)[0]


# the defaults that leave a switch off (`bool = None` is falsy as well)
_OFF = frozenset({"False", "None", "0"})


def _required(files: list[FileFacts], wanted: set[str]) -> dict[str, list[str]]:
    """Each field of `wanted` → the `bool` fields, off by default, the version refuses
    without it: a raise (or exit) under `if x.A and not x.<field>` (`--enable-auto-tool-choice`
    requires `--tool-call-parser`); a warning there refuses nothing. A switch on by default
    is not one to leave out: left out, it stays on. One pass over the conditions, for every
    registry's flag."""
    switches: set[str] = set()
    on: set[str] = set()  # a switch some class turns on by default
    for facts in files:
        for cls in facts.classes if facts.error is None else ():
            for name, annotation in cls.fields.items():
                if annotation.strip() == "bool":
                    switches.add(name)
                    if cls.defaults.get(name, "False") not in _OFF:
                        on.add(name)
    switches -= on
    found: dict[str, list[str]] = defaultdict(list)
    for facts in files:
        for site in facts.sites if facts.error is None else ():
            if site.kind not in _REFUSALS:
                continue
            for condition in site.conditions:
                test = condition.test
                if not condition.holds or " and not " not in test:
                    continue
                pair = _required_by(test)
                if pair is None or pair[1] not in wanted or pair[0] not in switches:
                    continue
                if pair[0] not in found[pair[1]]:
                    found[pair[1]].append(pair[0])
    return found


# the sites that refuse a run: a warning or a log line under the test lets it go on
_REFUSALS = frozenset({SiteKind.RAISE, SiteKind.EXIT, SiteKind.HELPER})


def _required_by(test: str) -> tuple[str, str] | None:
    """(A, B) of `x.A and not x.B`."""
    try:
        node = ast.parse(test, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
        return None
    if len(node.values) != 2:
        return None
    first, second = node.values
    if not (
        isinstance(first, ast.Attribute)
        and isinstance(second, ast.UnaryOp)
        and isinstance(second.op, ast.Not)
        and isinstance(second.operand, ast.Attribute)
    ):
        return None
    return first.attr, second.operand.attr
