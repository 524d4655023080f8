"""Knobs: the environment variables and command-line flags behind names in conditions.

- `envs.VLLM_X` (a module attribute) is an environment variable when that module reads
  `"VLLM_X"` (a getter module such as vllm's `envs.py`, or `X = os.getenv("X")`);
- `os.environ.get("X")`, `os.getenv("X")`, `os.environ["X"]` written in a condition, or
  in the local a condition tests, are environment variables as they stand;
- `self.name` is what the property `name` of the class (or a base) reads;
- `config.some_name` / `args.some_name` is the flag `--some-name` when argparse declares
  it, or when a `*Args` dataclass has a field of that name (fields become flags);
- `x.attr` that no setting takes as it is follows the assignments of `attr` under an `if`
  elsewhere (`AttrSet`) to the settings of their guards.
"""

from __future__ import annotations

import ast
import functools
import keyword
import re
from collections.abc import Iterable
from typing import NamedTuple

import msgspec

from errdex.extract.conditions import dotted_names
from errdex.extract.docs import DOC_OF
from errdex.extract.knobs import env_read_of
from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import (
    AttrSet,
    Binding,
    Condition,
    ConditionKind,
    EnvRead,
    FileFacts,
    KnobKind,
    PropertyFact,
)
from errdex.link.resolve import Namespace
from errdex.linked_facts import KnobLink

# The receiver of an attribute that a flag may set: `self.model_config`, `args`, `opts`.
_CONFIG_RECEIVER = re.compile(r"(?:config|args|arguments|options|opts|settings|cfg)$", re.I)
# Classes whose own fields a flag of the same name may set: `ModelConfig`, `EngineArgs`.
_CONFIG_CLASS = re.compile(r"(?:Config|Args|Arguments|Options|Settings)$")
# Classes whose fields are command-line flags as they are named: `EngineArgs`.
_ARGS_CLASS = re.compile(r"(?:Args|Arguments)$")
_MAX_KNOBS = 12
_MAX_SETS_PER_ATTR = 4  # assignments of one attribute followed to their settings
# A class is the Python entry point of an arguments dataclass when its constructor takes at
# least this many of the dataclass's fields as keywords.
_MIN_SHARED_KEYWORDS = 5
# A plain name or attribute chain, as `ast.unparse` writes one.
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# What a knob lookup depends on: the name, the file and class asking, the depth of the
# lookup, and the local binding of a bare name.
_ResolveKey = tuple[str, str, str | None, int, Binding | None]


class KnobIndex:
    """The version's environment reads, flags and properties, for resolving names."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._env_binds: dict[tuple[str, str], EnvRead] = {}  # (module, name) → read
        self._flags: dict[str, tuple[str, str, int]] = {}  # dest → (flag, file, line)
        self._fields: dict[str, tuple[str, str, str, int]] = {}  # name → (class, type, file, line)
        self._properties: dict[tuple[str, str], tuple[PropertyFact, FileFacts]] = {}
        self._args_fields: dict[str, set[str]] = {}  # arguments class → its fields
        self._sets: dict[str, list[tuple[AttrSet, FileFacts]]] = {}  # attribute → its sets
        # public classes whose constructor takes keywords: (module.Class, parameters)
        self._constructors: list[tuple[str, tuple[str, ...]]] = []
        self._entries: dict[str, tuple[str, tuple[str, ...]] | None] = {}
        # (module, name) → (the optional module, file): see `extract.environment`
        self._optional: dict[tuple[str, str], tuple[str, str]] = {}
        # (module, function name) → (the platform test it returns, file)
        self._platform: dict[tuple[str, str], tuple[str, str]] = {}
        # what authors wrote where a setting is declared: a variable → the comment above
        # its read; a field name → (its class, its docstring) for every class documenting it
        self._env_docs: dict[str, str] = {}
        self._field_docs: dict[str, list[tuple[str, str]]] = {}
        # a class's short name → its module-qualified names and the functions of its body
        # (properties and methods: no key of a JSON object validated against its fields)
        self._members: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for facts in files:
            if facts.error is not None:
                continue
            for read in facts.env_reads:
                if read.binds is not None:
                    self._env_binds[(facts.module, read.binds)] = read
                if read.doc is not None:
                    self._env_docs.setdefault(read.name, read.doc)
            for flag in facts.flags:
                dest = flag.flag[2:].replace("-", "_")
                self._flags.setdefault(dest, (flag.flag, facts.path, flag.line))
            for cls in facts.classes:
                if cls.methods:
                    self._members.setdefault(cls.name, []).append(
                        (f"{facts.module}.{cls.qualname}", cls.methods)
                    )
                for field, doc in cls.field_docs.items():
                    self._field_docs.setdefault(field, []).append((cls.qualname, doc))
                for field, annotation in cls.fields.items():
                    self._fields.setdefault(field, (cls.qualname, annotation, facts.path, cls.line))
                if cls.fields:
                    self._args_fields.setdefault(cls.qualname, set(cls.fields))
                elif _entry_class(cls.qualname, cls.init_params):
                    entry = f"{facts.module}.{cls.qualname}"
                    self._constructors.append((entry, cls.init_params))
            for attr_set in facts.attr_sets:
                self._sets.setdefault(attr_set.attr, []).append((attr_set, facts))
            for prop in facts.properties:
                self._properties[(facts.module, prop.qualname)] = (prop, facts)
            for name, module in facts.optional_imports.items():
                self._optional[(facts.module, name)] = (module, facts.path)
            for name, test in facts.platform_tests.items():
                self._platform[(facts.module, name)] = (test, facts.path)
        # The index never changes once built, and sites of one function (and functions of
        # one class) ask about the same names again and again: each is resolved once.
        self._resolved: dict[_ResolveKey, tuple[KnobLink, ...]] = {}

    def knobs(
        self,
        facts: FileFacts,
        class_name: str | None,
        conditions: Iterable[Condition],
        bindings: Iterable[Binding] = (),
        names: Iterable[str] | None = None,
    ) -> list[KnobLink]:
        """Knobs behind the names of `conditions`, as seen from a function of `facts`."""
        out: list[KnobLink] = []
        conditions = list(conditions)
        local = {b.name: b for b in bindings if b.origin == "local"}
        wanted = list(names) if names is not None else _names_of(conditions)
        # the names of the check's own branches first, those of earlier exits after: past
        # the cap, an exit far up a long function says less of this check
        near = set(_names_of(c for c in conditions if c.kind is not ConditionKind.EARLY_EXIT))
        wanted = [n for n in wanted if n in near] + [n for n in wanted if n not in near]
        for condition in conditions:
            reads = _env_reads_in(condition.statement)
            if reads:
                out.extend(_direct_reads(reads, condition, facts))
        for dotted in wanted:
            out.extend(self._resolve(dotted, facts, class_name, local, depth=0))
        unique: dict[tuple[str, str], KnobLink] = {}
        for knob in out:
            kept = unique.setdefault((knob.name, knob.behind), knob)
            if kept is not knob and knob.json_fields:
                # one JSON flag behind several attributes: what each of them is, together
                merged = tuple(dict.fromkeys(kept.json_fields + knob.json_fields))
                unique[(knob.name, knob.behind)] = msgspec.structs.replace(kept, json_fields=merged)
        return [self._documented(k, class_name) for k in list(unique.values())[:_MAX_KNOBS]]

    def _documented(self, knob: KnobLink, class_name: str | None) -> KnobLink:
        """The knob with what its authors wrote where it is declared, when they did."""
        doc: str | None = None
        if knob.kind == KnobKind.ENV:
            doc = self._env_docs.get(knob.name)
        elif knob.kind == KnobKind.FLAG:
            doc = self._field_doc(knob.name[2:].replace("-", "_"), knob.behind, class_name)
        return msgspec.structs.replace(knob, doc=doc) if doc else knob

    def _field_doc(self, field: str, behind: str, class_name: str | None) -> str | None:
        """The docstring of the configuration field a flag sets: of the class the condition
        is in (`self.field`), or of the class named like the object it is read from
        (`model_config.field` → `ModelConfig`); an arguments dataclass's field documented
        where its default is (`= AttentionConfig.backend`) is followed there. A field of
        another object takes the one doc the classes agree on; none is guessed for `self`."""
        found = self._field_docs.get(field)
        if not found:
            return None
        parts = behind.split(".")
        receiver = parts[-2] if len(parts) >= 2 else ""
        owner = class_name.rsplit(".", 1)[-1] if class_name and receiver in OWN_OBJECT else None
        wanted = receiver.replace("_", "").lower()
        for qualname, doc in found:
            name = qualname.rsplit(".", 1)[-1]
            if name == owner or (wanted and name.lower() == wanted):
                return self._followed(doc)
        for qualname, doc in found:
            if doc.startswith(DOC_OF) and qualname in self._args_fields:
                return self._followed(doc)
        if owner is not None:
            return None
        docs = {doc for _, doc in found if not doc.startswith(DOC_OF)}
        return docs.pop() if len(docs) == 1 else None

    def _followed(self, doc: str) -> str | None:
        """A doc as it is, or the doc of the field `DOC_OF` points to."""
        if not doc.startswith(DOC_OF):
            return doc
        owner, _, attr = doc[len(DOC_OF) :].rpartition(".")
        for qualname, target in self._field_docs.get(attr, ()):
            if qualname.rsplit(".", 1)[-1] == owner and not target.startswith(DOC_OF):
                return target
        return None

    # -- names -----------------------------------------------------------------------------

    def _resolve(
        self,
        dotted: str,
        facts: FileFacts,
        class_name: str | None,
        local: dict[str, Binding],
        depth: int,
    ) -> tuple[KnobLink, ...]:
        # Only a bare name's own local binding can change the answer: it is in the key.
        binding = local.get(dotted) if local and "." not in dotted else None
        key = (dotted, facts.path, class_name, depth, binding)
        found = self._resolved.get(key)
        if found is None:
            found = tuple(self._resolve_once(dotted, facts, class_name, local, depth))
            self._resolved[key] = found
        return found

    def _resolve_once(
        self,
        dotted: str,
        facts: FileFacts,
        class_name: str | None,
        local: dict[str, Binding],
        depth: int,
    ) -> list[KnobLink]:
        parts = dotted.split(".")
        root = parts[0]
        if root in OWN_OBJECT and len(parts) == 2 and class_name and depth < 2:
            found = self._through_property(parts[1], dotted, facts, class_name, depth)
            if found:
                return found
        if root in local and len(parts) == 1:
            return self._through_local(local[root], dotted, facts, class_name, depth)
        env = self._module_env(dotted, facts) or self._environment(dotted, facts)
        if env is not None:
            return [env]
        flag = self._flag(parts, dotted, class_name)
        if flag is not None:
            return [flag]
        if len(parts) < 2 or depth >= 2:
            return []
        return self._through_sets(dotted, class_name, depth)

    def _through_sets(self, dotted: str, class_name: str | None, depth: int) -> list[KnobLink]:
        """The settings behind the guard of an assignment of the attribute elsewhere in the
        version: `cudagraph_mode` is set to `NONE` when `self.model_config.enforce_eager`,
        which `--enforce-eager` sets."""
        out: list[KnobLink] = []
        receiver = _receiver(dotted, class_name)
        sets = [
            (found, where)
            for found, where in self._sets.get(dotted.rsplit(".", 1)[-1], ())
            if _receiver(found.target, found.class_name) == receiver
        ]
        for found, where in sets[:_MAX_SETS_PER_ATTR]:
            guard = parse_expression(found.guard)
            if guard is None:
                continue
            is_and = isinstance(guard, ast.BoolOp) and isinstance(guard.op, ast.And)
            for conjunct in guard.values if isinstance(guard, ast.BoolOp) and is_and else [guard]:
                for name in dotted_names(conjunct):
                    for knob in self._resolve(name, where, found.class_name, {}, depth + 1):
                        if knob.sets is not None or not knob.same_value:
                            continue
                        out.append(
                            msgspec.structs.replace(
                                knob,
                                behind=dotted,
                                via=f"{where.path}:{found.line} sets `{found.target} = "
                                f"{found.value}` when `{found.guard}`",
                                sets=found.value,
                                when=ast.unparse(conjunct),
                                when_behind=knob.behind,
                                note=found.note,
                            )
                        )
        return out

    def _module_env(self, dotted: str, facts: FileFacts) -> KnobLink | None:
        root = dotted.split(".")[0]
        if root in OWN_OBJECT:
            return None
        if root not in facts.imports and "." not in dotted:
            read = self._env_binds.get((facts.module, dotted))
            where: FileFacts | None = facts
        else:
            if root not in facts.imports:
                return None
            found = self._names.lookup(self._names.qualify(facts, dotted))
            if found is None:
                return None
            where, name = found
            read = self._env_binds.get((where.module, name))
        if read is None or where is None:
            return None
        return KnobLink(
            name=read.name,
            kind=KnobKind.ENV,
            behind=dotted,
            reads=read.source or None,
            file=where.path,
            line=read.line,
            same_value=True,
            value_type=where.env_types.get(read.binds or read.name),
        )

    def _environment(self, dotted: str, facts: FileFacts) -> KnobLink | None:
        """An optional package's name (`HAS_TRITON`, `nixl = None` after a failed import)
        or a function that tests the platform (`_has_sm100_cuda()`), wherever defined."""
        if not self._optional and not self._platform:
            return None
        root, _, rest = dotted.partition(".")
        if root in OWN_OBJECT:
            if "." in rest:
                return None
            where: FileFacts | None = facts
            name = rest
        elif root not in facts.imports and not rest:
            where, name = facts, dotted
        elif root in facts.imports:
            qualname = self._names.qualify(facts, dotted)
            # an optional name is itself imported (`from pkg import X` in the `try`): it is
            # found where the `try` is, before the lookup follows the import out of the code
            module, _, name = qualname.rpartition(".")
            if (module, name) in self._optional:
                where = self._names.modules.get(module)
            else:
                found = self._names.lookup(qualname)
                if found is None:
                    return None
                where, name = found
        else:
            return None
        if where is None:
            return None
        optional = None if root in OWN_OBJECT else self._optional.get((where.module, name))
        # a compiled part of the codebase itself (`vllm._C`) is built, not installed apart
        own = optional is not None and optional[0].split(".")[0] == where.module.split(".")[0]
        if optional is not None and not own:
            kind, knob, file = KnobKind.PACKAGE, optional[0], optional[1]
            via = f"`{name}` is None (or false) when importing `{knob}` failed"
        elif (test := self._platform.get((where.module, name.rsplit(".", 1)[-1]))) is not None:
            kind, knob, file = KnobKind.PLATFORM, test[0], test[1]
            via = f"`{name}()` returns `{knob}`"
        else:
            return None
        # `same_value`: a name that holds it as it is (a local alias, a property returning
        # it) says the same; one computed from it says nothing exact
        return KnobLink(name=knob, kind=kind, behind=dotted, file=file, via=via, same_value=True)

    def _through_property(
        self, attr: str, dotted: str, facts: FileFacts, class_name: str, depth: int
    ) -> list[KnobLink]:
        found = self._property(facts, class_name, attr)
        if found is None:
            return []
        prop, where = found
        owner = prop.qualname.rpartition(".")[0]
        via = f"property {prop.qualname} ({where.path}:{prop.line})"
        out: list[KnobLink] = [
            KnobLink(
                name=name,
                kind=KnobKind.ENV,
                behind=dotted,
                file=where.path,
                line=prop.line,
                via=f"{via} reads it",
                same_value=name in prop.returns_env,
            )
            for name in prop.env_reads
        ]
        for read in prop.reads:
            if read == dotted:
                continue
            for knob in self._resolve(read, where, owner, {}, depth + 1):
                out.append(
                    msgspec.structs.replace(
                        knob,
                        behind=dotted,
                        via=f"{via} reads {knob.behind}",
                        same_value=knob.same_value and knob.behind in prop.returns,
                    )
                )
        return out

    def _property(
        self, facts: FileFacts, class_name: str, attr: str
    ) -> tuple[PropertyFact, FileFacts] | None:
        hit = self._properties.get((facts.module, f"{class_name}.{attr}"))
        if hit is not None:
            return hit
        cls = self._names.classes.get(f"{facts.module}.{class_name}")
        if cls is None:
            return None
        for base in self._names.bases(cls):
            found = self._names.lookup(base)
            if found is None:
                continue
            module, name = found
            hit = self._properties.get((module.module, f"{name}.{attr}"))
            if hit is not None:
                return hit
        return None

    def _through_local(
        self, binding: Binding, dotted: str, facts: FileFacts, class_name: str | None, depth: int
    ) -> list[KnobLink]:
        value = _local_value(binding.value)
        if value is None:
            return []
        if value.env is not None:
            return [
                KnobLink(
                    name=value.env,
                    kind=KnobKind.ENV,
                    behind=dotted,
                    reads=binding.value[:160],
                    file=facts.path,
                    line=binding.line,
                    via=f"the local `{binding.name}` (line {binding.line})",
                    same_value=True,
                )
            ]
        if depth >= 2:
            return []
        if value.alias is not None:
            via = f"the local `{binding.name}` = `{value.alias}` (line {binding.line})"
            return [
                msgspec.structs.replace(k, behind=dotted, via=via)
                for k in self._resolve(value.alias, facts, class_name, {}, depth + 1)
            ]
        # A local computed from settings: the knobs behind the names it is made of.
        out: list[KnobLink] = []
        for inner in value.names:
            out.extend(self._resolve(inner, facts, class_name, {}, depth + 1))
        return out

    def field_flag(self, name: str) -> KnobLink | None:
        """The flag that sets the field `name` of an arguments class (`EngineArgs`), or that
        argparse declares with that destination: how a user gives a value a field of that
        name holds elsewhere (a registry's member)."""
        if name not in self._flags and not any(
            _ARGS_CLASS.search(cls) and name in fields for cls, fields in self._args_fields.items()
        ):
            return None
        return self._flag(["args", name], f"args.{name}", None)

    def _json_flag_field(self, name: str) -> bool:
        """Whether `name` is a field of an arguments class whose flag takes a JSON object
        (declared as a configuration class or a dict)."""
        field = self._fields.get(name)
        if field is None or not ("Config" in field[1] or field[1].startswith(("dict", "Dict"))):
            return False
        return any(
            _ARGS_CLASS.search(cls) and name in fields for cls, fields in self._args_fields.items()
        )

    def _json_key(self, receiver: str, attr: str) -> str | None:
        """None when `attr` of the JSON-valued field `receiver` is a key of its object as far
        as the code shows; else the field to set instead: the one a property returns as is
        (`enabled` → `return self.enable_return_routed_experts`), '' for any other property
        or method (the object forbids keys that are not fields)."""
        declared = self._fields.get(receiver)
        if declared is None:
            return None
        classes = [
            member
            for word in re.findall(r"[A-Za-z_]\w*", declared[1])
            for member in self._members.get(word, ())
        ]
        owners = [qualname for qualname, methods in classes if attr in methods]
        if len(classes) != 1 or not owners:
            return None
        qualname, methods = classes[0]
        module, _, cls = qualname.rpartition(".")
        while module and (module, f"{cls}.{attr}") not in self._properties:
            # a nested class: the module is the part before its outer class
            module, _, outer = module.rpartition(".")
            cls = f"{outer}.{cls}"
        found = self._properties.get((module, f"{cls}.{attr}"))
        if found is None:
            return ""
        prop = found[0]
        returned = prop.returns[0] if len(prop.returns) == 1 else ""
        field = returned.removeprefix("self.")
        plain = returned.startswith("self.") and field.isidentifier() and field not in methods
        return field if plain and set(prop.reads) <= {returned} else ""

    def _flag(self, parts: list[str], dotted: str, class_name: str | None) -> KnobLink | None:
        if len(parts) < 2:
            return None
        name = parts[-1]
        receiver = parts[-2]
        if receiver not in OWN_OBJECT and self._json_flag_field(receiver):
            # `attention_config.backend`, where `--attention-config` takes a JSON object of
            # fields: that flag sets it (a `--backend` of another parser does not)
            knob = self._flag(["args", receiver], ".".join(parts[:-1]), None)
            instead = self._json_key(receiver, name)
            if knob is None or instead is None:
                return knob
            return msgspec.structs.replace(knob, json_fields=((name, instead),))
        # A one-word attribute (`model`, `seed`) is a flag only on an object named for
        # configuration (`model_config.quantization`): on `self` it is too often internal.
        if "_" not in name and not _CONFIG_RECEIVER.search(receiver):
            return None
        in_config_class = (
            receiver in OWN_OBJECT
            and class_name is not None
            and _CONFIG_CLASS.search(class_name.rsplit(".", 1)[-1]) is not None
        )
        if not (in_config_class or _CONFIG_RECEIVER.search(receiver)):
            return None
        flag = "--" + name.replace("_", "-")
        declared = self._flags.get(name)
        field = self._fields.get(name)
        if declared is not None:
            via = f"argparse declares `{declared[0]}` ({declared[1]}:{declared[2]})"
            if field is not None:
                via += f"; `{field[0]}.{name}` is the field of the same name"
            file, line = declared[1], declared[2]
        elif field is not None:
            via = f"`{field[0]}.{name}` is a command-line field of the same name"
            file, line = field[2], field[3]
        else:
            return None
        value_type = field[1] if field is not None else None
        entry = self._entry(field[0]) if field is not None else None
        call = None
        if entry is not None and name in entry[1]:
            call = entry[0] + "(" + ",".join(entry[1][:1]) + ")"
        return KnobLink(
            name=declared[0] if declared else flag,
            kind=KnobKind.FLAG,
            behind=dotted,
            file=file,
            line=line,
            via=via,
            same_value=True,
            value_type=value_type,
            call=call,
        )

    def _entry(self, args_class: str) -> tuple[str, tuple[str, ...]] | None:
        """The public class a user builds with the same keywords as an arguments dataclass's
        fields (vllm's `LLM` for `EngineArgs`): the most fields taken, at least a few (all
        of a small dataclass's)."""
        if args_class not in self._entries:
            fields = self._args_fields.get(args_class, set())
            best: tuple[str, tuple[str, ...]] | None = None
            best_shared = min(_MIN_SHARED_KEYWORDS, len(fields)) - 1
            for entry, params in self._constructors:
                shared = len(fields.intersection(params))
                if shared > best_shared:
                    best, best_shared = (entry, params), shared
            self._entries[args_class] = best
        return self._entries[args_class]


def _receiver(dotted: str, class_name: str | None) -> str:
    """What an attribute is of, by name: `compilation_config` for
    `self.compilation_config.mode`, and for `self.mode` in `CompilationConfig` too."""
    parts = dotted.split(".")
    owner = parts[-2] if len(parts) >= 2 else ""
    if owner in OWN_OBJECT and class_name:
        last = class_name.rsplit(".", 1)[-1]
        owner = re.sub(r"(?<!^)(?=[A-Z][a-z])", "_", last).lower()
    return owner


def _entry_class(qualname: str, params: tuple[str, ...]) -> bool:
    """A public class, not itself configuration, whose constructor takes keywords."""
    return (
        len(params) >= 2
        and "." not in qualname
        and not qualname.startswith("_")
        and _CONFIG_CLASS.search(qualname) is None
    )


def _direct_reads(
    reads: tuple[tuple[str, str], ...], condition: Condition, facts: FileFacts
) -> list[KnobLink]:
    """The environment reads written in a condition itself, as knobs."""
    return [
        KnobLink(
            name=name,
            kind=KnobKind.ENV,
            behind=source,
            reads=source,
            file=facts.path,
            line=condition.line,
            same_value=True,
        )
        for name, source in reads
    ]


# Conditions and bindings repeat across the sites of a function and the functions of a
# module: what each text holds is worked out once per text, not once per site.


class _LocalValue(NamedTuple):
    """What the knobs behind a local can be, from the source of the value it is assigned."""

    env: str | None  # the variable when the value reads one: `os.getenv("X")`
    alias: str | None  # the source of a plain name or attribute chain: `self.config.x`
    names: tuple[str, ...]  # otherwise, the dotted names the value is computed from


@functools.lru_cache(maxsize=1 << 16)
def _local_value(text: str) -> _LocalValue | None:
    if _DOTTED.fullmatch(text) and not any(map(keyword.iskeyword, text.split("."))):
        return _LocalValue(None, text, ())  # what parsing it would give, without the parse
    value = parse_expression(text)
    if value is None:
        return None
    read = env_read_of(value) if _may_read_env(text) else None
    if read is not None:
        return _LocalValue(read, None, ())
    if isinstance(value, ast.Name | ast.Attribute):
        return _LocalValue(None, ast.unparse(value), ())
    return _LocalValue(None, None, tuple(dotted_names(value)))


@functools.lru_cache(maxsize=1 << 16)
def _env_reads_in(text: str) -> tuple[tuple[str, str], ...]:
    """(variable, source of the read) for each environment read written in a condition."""
    if "environ" not in text and "getenv" not in text:
        return ()
    tree = parse_expression(text)
    if tree is None:
        return ()
    out: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr):
            continue
        name = env_read_of(node)
        if name is not None:
            out.append((name, ast.unparse(node)))
    return tuple(out)


def _may_read_env(text: str) -> bool:
    """False when `text` cannot hold an environment read (every way of reading one names
    `getenv` or `environ`); non-ASCII text may spell them in other characters."""
    return "environ" in text or "getenv" in text or not text.isascii()


def _names_of(conditions: Iterable[Condition]) -> list[str]:
    found: list[str] = []
    for condition in conditions:
        found.extend(_condition_names(condition.statement))
    return list(dict.fromkeys(found))


@functools.lru_cache(maxsize=1 << 16)
def _condition_names(text: str) -> tuple[str, ...]:
    tree = parse_expression(text)
    return tuple(dotted_names(tree)) if tree is not None else ()


@functools.lru_cache(maxsize=1 << 16)
def parse_expression(text: str) -> ast.expr | None:
    """The expression a condition or binding holds, parsed once per text (read-only: the
    same tree is handed to every caller), or None when it does not parse."""
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
