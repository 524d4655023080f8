"""Knobs: the settings a user controls behind the names in conditions.

Each name is resolved to the environment variables (`environment_knobs`) and flags
(`flags`) behind it, through what connects it to them:

- `self.name` is what the property `name` of the class (or a base) reads, and
  `cache_config.name` what the property of the settings class the object is named for
  returns as it is (one key, or one environment variable);
- a local is what its value reads or is computed from; `pc.x`, where the local `pc` holds
  `vllm_config.parallel_config`, is `vllm_config.parallel_config.x`, and `spec.x`, where the
  parameter `spec` is annotated as a settings class (`settings_classes`), is that class's
  object's `x` (a parameter of another `...Config` class holds no setting);
- `x.attr` that no setting takes as it is follows the assignments of `attr` under an `if`
  elsewhere (`AttrSet`) to the settings of their guards.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping, Sequence

import msgspec

from errdex.extract.conditions import dotted_name, dotted_names
from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import (
    AttrSet,
    Binding,
    Condition,
    ConditionKind,
    FileFacts,
    KnobKind,
    PropertyFact,
)
from errdex.link.copied_roots import CopiedRoots
from errdex.link.dict_keys import DictRead, dict_alias, dict_read
from errdex.link.environment_knobs import EnvironmentIndex, direct_reads
from errdex.link.expression_texts import (
    bound_value,
    env_reads_in,
    local_value,
    names_of,
    parse_expression,
)
from errdex.link.flags import FlagIndex
from errdex.link.group_sizes import GroupSizes
from errdex.link.resolve import Namespace
from errdex.link.settings_classes import object_name
from errdex.linked_facts import PASSED_KEY, SECTION_FIELDS, KnobLink, own_key, property_via

_MAX_KNOBS = 12
_MAX_SETS_PER_ATTR = 4  # assignments of one attribute followed to their settings
# What a knob lookup depends on: the name, the file and class asking, the depth of the
# lookup, and the local binding of a bare name.
_ResolveKey = tuple[str, str, str | None, int, Binding | None]
_HeldKey = tuple[str, str, str | None, Binding | None, str | None]


class KnobIndex:
    """The version's environment reads, flags and properties, for resolving names."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._properties: dict[tuple[str, str], tuple[PropertyFact, FileFacts]] = {}
        # (the object a class is named for, the property) → the properties of that name:
        # `parallel_config.use_ubatching` is `ParallelConfig.use_ubatching` when only one
        self._named_properties: dict[tuple[str, str], list[tuple[PropertyFact, FileFacts]]] = {}
        self._sets: dict[str, list[tuple[AttrSet, FileFacts]]] = {}  # attribute → its sets
        # what the sets assign attributes of, by name → its sets (`aux_output_config`)
        self._sets_of: dict[str, list[tuple[AttrSet, FileFacts]]] = {}
        # (the object a configuration class is named for, a method) → the methods of that
        # name returning one of the object's keys: `attention_config.resolve_indexer_kv_dtype`
        self._getters: dict[tuple[str, str], list[PropertyFact]] = {}
        # a configuration class's method returning one key of a dict it holds, by the
        # method's name → (the object the class is named for, the dict): `kv_transfer_config.
        # get_from_extra_config("k", d)` reads `kv_transfer_config.kv_connector_extra_config`
        self._key_getters: dict[str, list[tuple[str, str]]] = {}
        for facts in files:
            if facts.error is not None:
                continue
            for attr_set in facts.attr_sets:
                self._sets.setdefault(attr_set.attr, []).append((attr_set, facts))
                receiver = receiver_name(attr_set.target, attr_set.class_name)
                self._sets_of.setdefault(receiver, []).append((attr_set, facts))
            for prop in facts.properties:
                if prop.gets_key:
                    owner, _, attr = prop.qualname.rpartition(".")
                    held = prop.returns[0].partition(".")[2] if prop.returns else ""
                    self._key_getters.setdefault(attr, []).append((object_name(owner), held))
                    continue
                if prop.method:
                    owner, _, attr = prop.qualname.rpartition(".")
                    key = (object_name(owner), attr)
                    self._getters.setdefault(key, []).append(prop)
                    continue
                self._properties[(facts.module, prop.qualname)] = (prop, facts)
                owner, _, attr = prop.qualname.rpartition(".")
                if owner and "." not in owner:
                    key = (object_name(owner), attr)
                    self._named_properties.setdefault(key, []).append((prop, facts))
        self.environment = EnvironmentIndex(files, names)
        self.flags = FlagIndex(files, self._properties)
        self.group_sizes = GroupSizes(files, names)
        # The quick "no setting": the last names (and the objects they are read of) some
        # source can match a dotted name by; most names a condition reads are none of them
        self._own_attributes, self._attributes, self._receivers = self._matchable()
        self._sections = self.flags.section_names()
        # The index never changes once built, and sites of one function (and functions of
        # one class) ask about the same names again and again: each is resolved once.
        self._resolved: dict[_ResolveKey, tuple[KnobLink, ...]] = {}
        # `_held`'s answers, by the name, the file and class asking, the root's binding and
        # the class its parameter is annotated with
        self._held_found: dict[_HeldKey, tuple[KnobLink, ...] | None] = {}
        # `_finished`'s answers, by the knob (a value: `knobs` builds equal knobs afresh) and
        # the class asking
        self._finished_found: dict[tuple[KnobLink, str | None], KnobLink] = {}
        # `assigned_size`'s answers, by (module, class, attribute)
        self._sizes: dict[tuple[str, str, str], tuple[KnobLink, ...]] = {}
        self._copied_roots = CopiedRoots(names, self._sets)

    def _matchable(self) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """The last names some source can match a dotted name by, whose root the file does
        not import: of `self.x`, a property's, a platform test's or a function's returning
        a variable, a configuration class's key; of every such name, a flag's destination,
        an arguments field's, an attribute's assigned under an `if`. Then the objects an
        attribute of any name may be read of: a field whose flag takes JSON
        (`attention_config.backend`). A property named for its class's object is matched
        by the pair (`_named_properties`). Every source of `_resolve_once` keys on these."""
        names, receivers = self.flags.matchable()
        names.update(self._sets)
        own = {qualname.rpartition(".")[2] for _, qualname in self._properties}
        own.update(self.environment.function_names(), self.flags.keys(), names)
        return frozenset(own), frozenset(names), frozenset(receivers)

    def _no_setting(self, parts: list[str], facts: FileFacts) -> bool:
        """Whether no source can match the dotted name `parts` (`_matchable`): the quick
        answer for most names a condition reads. A name whose root the file imports, or a
        call's result, is left to the sources (they follow the import, the accessor)."""
        root = parts[0]
        if root in facts.imports or root.endswith("()"):
            return False
        if root in OWN_OBJECT and len(parts) == 2:
            return parts[1] not in self._own_attributes
        if root in OWN_OBJECT and len(parts) == 3 and parts[1] in self._sections:
            return False  # a key of a section of the class's object (`self.pass_config.x`)
        return (
            parts[-1] not in self._attributes
            and parts[-2] not in self._receivers
            and (parts[-2], parts[-1]) not in self._named_properties
            # a key of a section of a JSON-valued flag's object (`FlagIndex._section_key`)
            and (len(parts) < 3 or parts[-3] not in self._receivers)
        )

    def knobs(
        self,
        facts: FileFacts,
        class_name: str | None,
        conditions: Iterable[Condition],
        bindings: Iterable[Binding] = (),
        names: Iterable[str] | None = None,
        init_values: dict[str, str] | None = None,
        typed: Mapping[str, str] | None = None,
    ) -> list[KnobLink]:
        """Knobs behind the names of `conditions`, as seen from a function of `facts`;
        `init_values` holds what the class's constructor assigns `self.X` (see
        `SourceRead.init_values`), `typed` the classes the function's parameters are
        annotated with."""
        out: list[KnobLink] = []
        conditions = list(conditions)
        local = {b.name: b for b in bindings if b.origin == "local"}
        wanted = list(names) if names is not None else names_of(conditions)
        for condition in conditions:
            # the text `statement` is made of holds every read (`not (...)` adds none): most
            # conditions read no variable, and need not be written out to be looked up
            written = condition.text or condition.test
            if "environ" not in written and "getenv" not in written:
                continue
            reads = env_reads_in(condition.statement)
            if reads:
                out.extend(direct_reads(reads, condition, facts))
        # What a name resolves to does not depend on the order names are asked in.
        behind: list[tuple[str, Sequence[KnobLink]]] = []
        resolved, path = self._resolved, facts.path
        for name in wanted:
            # `_resolve`'s lookup written out: the sites ask about four names each, and
            # all but a few were asked about before
            binding = local.get(name) if local and "." not in name else None
            found: Sequence[KnobLink] | None = None
            if (local or typed) and "." in name:
                found = self._held(name, facts, class_name, local, typed)
            if found is None:
                found = resolved.get((name, path, class_name, 0, binding))
            if found is None:
                found = self._resolve(name, facts, class_name, local, depth=0)
            if init_values:  # through the constructor's value of it, then its own
                found = [*self._through_init(name, facts, class_name, init_values), *found]
            if not found and class_name:
                found = self.assigned_size(name, facts, class_name)
            if found:
                behind.append((name, found))
        if len(behind) > 1:
            # the names of the check's own branches first, those of earlier exits after:
            # past the cap, an exit far up a long function says less of this check. Only
            # worked out when two names have knobs: it parses every condition's text.
            near = set(names_of(c for c in conditions if c.kind is not ConditionKind.EARLY_EXIT))
            behind = [b for b in behind if b[0] in near] + [b for b in behind if b[0] not in near]
        for _, found in behind:
            out.extend(found)
        unique: dict[tuple[str, str], KnobLink] = {}
        for knob in out:
            kept = unique.setdefault((knob.name, knob.behind), knob)
            if kept is not knob and (knob.json_fields or knob.key_defaults):
                # one JSON flag behind several attributes: what each of them is, together
                unique[(knob.name, knob.behind)] = msgspec.structs.replace(
                    kept,
                    json_fields=tuple(dict.fromkeys(kept.json_fields + knob.json_fields)),
                    key_defaults=tuple(dict.fromkeys(kept.key_defaults + knob.key_defaults)),
                )
        return [self._finished(k, class_name) for k in list(unique.values())[:_MAX_KNOBS]]

    def _finished(self, knob: KnobLink, class_name: str | None) -> KnobLink:
        """The knob with its doc and the flags that write its JSON's fields, once per knob
        and class: the sites of a function are given the same resolved knobs again."""
        key = (knob, class_name)
        done = self._finished_found.get(key)
        if done is None:
            done = self._finished_found[key] = self._json_overrides(
                self._documented(knob, class_name)
            )
        return done

    def caller_knobs(
        self,
        facts: FileFacts,
        class_name: str | None,
        branch: list[Condition],
        bindings: Iterable[Binding] = (),
    ) -> list[KnobLink]:
        """The knobs behind a caller's branch; not a configuration class's own key: its
        branches pick what the user asked for (`if self.method == "dspark":
        _validate_dspark(...)`), or build another object of the site's class (the draft's
        `ModelConfig`) beside the user's own."""
        return [
            k
            for k in self.knobs(facts, class_name, branch, bindings)
            if not own_key(k.json_key, k.via)
        ]

    def resolve(self, dotted: str, facts: FileFacts, class_name: str | None) -> list[KnobLink]:
        """The knobs behind one name as a function of `facts` reads it, with no local; a
        settings object's field a flag of another name writes, when no name matches it (a
        value handed on: `kv_cache_dtype=cache_config.cache_dtype`)."""
        found = self._handed_on(dotted, facts, class_name, depth=1)
        return [self._json_overrides(self._documented(k, class_name)) for k in found]

    def resolve_with(
        self, dotted: str, facts: FileFacts, class_name: str | None, local: dict[str, Binding]
    ) -> list[KnobLink]:
        """`resolve`, where a bare name may be one of the function's locals (`local`)."""
        return [
            self._json_overrides(self._documented(k, class_name))
            for k in self._resolve(dotted, facts, class_name, local, depth=0)
        ]

    def _held(
        self,
        dotted: str,
        facts: FileFacts,
        class_name: str | None,
        local: dict[str, Binding],
        typed: Mapping[str, str] | None,
    ) -> Sequence[KnobLink] | None:
        """The knobs behind `x.attr` where `x` is a name the function holds an object under:
        a local bound to another name's object (`pc = vllm_config.parallel_config`), or a
        parameter annotated as a settings class; None when `x` is neither. A parameter of
        another `...Config` class has none, even when a local rebinds it."""
        root, _, rest = dotted.partition(".")
        if root in OWN_OBJECT:
            return None
        cls = typed.get(root) if typed else None
        binding = local.get(root)
        if cls is None and binding is None:
            return None  # most names: neither a local nor an annotated parameter
        # the sites of one function ask about the same names: each is worked out once
        key = (dotted, facts.path, class_name, binding, cls)
        if key not in self._held_found:
            self._held_found[key] = self._held_once(root, rest, facts, class_name, binding, cls)
        return self._held_found[key]

    def _held_once(
        self,
        root: str,
        rest: str,
        facts: FileFacts,
        class_name: str | None,
        binding: Binding | None,
        annotated: str | None,
    ) -> tuple[KnobLink, ...] | None:
        cls = annotated.rsplit(".", 1)[-1] if annotated is not None else None
        if cls is not None:
            if not cls.endswith("Config"):
                cls = None
            elif not self.flags.settings_class(cls):
                return ()
        if binding is not None:
            value = bound_value(binding, facts)
            if value is None or value.alias is None or value.alias.partition(".")[0] == root:
                return None
            held, via = value.alias, f"the local `{root}` = `{value.alias}` (line {binding.line})"
        elif cls is not None and (held_as := self.flags.held_as(cls)) not in (None, root):
            held = held_as
            via = f"`{root}` is a `{cls}` (as annotated)"
        else:
            return None
        out: list[KnobLink] = []
        whole = f"{held}.{rest}"
        for knob in self._handed_on(whole, facts, class_name, depth=0):
            # written as the object's own name would be, then as the condition names it
            knob = self._json_overrides(self._documented(knob, class_name))
            behind = knob.behind
            if behind == held or behind.startswith(held + "."):
                behind = root + behind[len(held) :]
            else:
                behind = f"{root}.{rest}"
            # the link's own words first: the page reads how the flag was matched from them
            said = f"{knob.via}; {via}" if knob.via else via
            out.append(msgspec.structs.replace(knob, behind=behind, via=said))
        return tuple(out)

    def _json_overrides(self, knob: KnobLink) -> KnobLink:
        """A JSON-valued flag with the plain flags that write a field of its object when
        given (`if self.enable_return_routed_experts: self.aux_output_config.
        enable_return_routed_experts = True`): the JSON's value for that field is then not
        what the program runs with."""
        if knob.kind != KnobKind.FLAG or not whole_object(knob.value_type):
            return knob
        found: list[tuple[str, str, str, str]] = []
        # the object the flag takes, by the name the code holds it under
        receiver = (
            knob.name.lstrip("-").replace("-", "_")
            if knob.json_key is not None
            else knob.behind.rsplit(".", 1)[-1]
        )
        for attr_set, where in self._sets_of.get(receiver, ())[: _MAX_SETS_PER_ATTR * 4]:
            guard = parse_expression(attr_set.guard)
            # only a guard that is the flag itself: given, it writes the field
            name = dotted_name(guard) if isinstance(guard, ast.Name | ast.Attribute) else None
            if name is None:
                continue
            for flag in self._resolve(name, where, attr_set.class_name, {}, 1):
                if flag.kind != KnobKind.FLAG or flag.name == knob.name or flag.sets is not None:
                    continue
                if flag.same_value:
                    at = f"{where.path}:{attr_set.line}"
                    found.append((attr_set.attr, flag.name, attr_set.value, at))
        if not found:
            return knob
        return msgspec.structs.replace(knob, json_set_by=tuple(dict.fromkeys(found)))

    def _documented(self, knob: KnobLink, class_name: str | None) -> KnobLink:
        """The knob with what its authors wrote where it is declared, when they did."""
        doc: str | None = None
        if knob.kind == KnobKind.ENV:
            doc = self.environment.env_doc(knob.name)
        elif knob.kind == KnobKind.FLAG:
            # a key of a JSON-valued flag's object: that key's own doc
            field = knob.json_key or knob.name[2:].replace("-", "_")
            # a key nested in a section of the object: that key's doc in the section's class
            doc = self.flags.section_doc(knob) or self.flags.field_doc(
                field, knob.behind, class_name
            )
        return msgspec.structs.replace(knob, doc=doc) if doc else knob

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
        if len(parts) > 1 and self._no_setting(parts, facts):
            return []  # no source keys on it: vllm's link, 14,484 of 57,672 names
        if root in OWN_OBJECT and len(parts) == 2 and class_name and depth < 2:
            found = self._through_property(parts[1], dotted, facts, class_name, depth)
            if found:
                return found
        if len(parts) == 1:
            if root in local:
                return self._through_local(local[root], dotted, facts, class_name, depth, local)
            if root not in facts.imports and not self.environment.binds(facts, root):
                return []  # no flag is a plain name, and the file binds no setting by it
        env = self.environment.module_env(dotted, facts)
        if env is not None:
            return [env]
        found = self.environment.environment(dotted, facts)
        if found:
            return found
        if depth < 2 and (len(parts) == 1 or (len(parts) == 2 and root.endswith("()"))):
            # a group accessor's size: `get_tp_world_size()`, `get_pp_group().world_size`
            sized = self._group_size(parts, facts)
            if sized:
                return sized
        flag = self.flags.flag(parts, dotted, class_name, facts.path)
        # `self.key` of a configuration class: also the key of the JSON its flag takes
        own = self.flags.own_json_key(dotted, class_name)
        if flag is not None and own is None:
            return [flag]
        found = [k for k in (flag, own) if k is not None]
        if not found:
            # a key of a configuration class that is a section of another's object:
            # `self.key` in `PassConfig`, `self.pass_config.key` in `CompilationConfig`
            found = self.flags.section_key(dotted, class_name)
        if len(parts) < 2 or depth >= 2:
            return found
        if not found and parts[-2] not in OWN_OBJECT:
            found = self._through_named_property(parts[-2], parts[-1], dotted, depth)
        return found + self._through_sets(dotted, class_name, depth)

    def _group_size(self, parts: list[str], facts: FileFacts) -> list[KnobLink]:
        """The size flag behind a group accessor's call (`get_tp_world_size()`), or a size
        read of the group one returns (`get_pp_group().world_size`)."""

        def flags(name: str, where: FileFacts) -> tuple[KnobLink, ...]:
            return self._resolve(name, where, None, {}, 1)

        if len(parts) == 1:
            return self.group_sizes.knobs(parts[0], facts, flags)
        return self.group_sizes.size_read(parts[0][:-2], parts[1], facts, flags)

    def copied(
        self, dotted: str, value: str, facts: FileFacts, class_name: str | None
    ) -> list[KnobLink]:
        """The settings behind `self.X` (`dotted`) of a class whose constructor copied
        `value` there (`ClassFact.attr_chains`), read as that class's method reads it."""
        return self._through_init(dotted, facts, class_name, {dotted.partition(".")[2]: value})

    def _through_init(
        self, dotted: str, facts: FileFacts, class_name: str | None, values: dict[str, str]
    ) -> list[KnobLink]:
        """The settings behind `self.X` that the constructor set to another object's
        attribute as it is: `self.max_model_len = model_config.max_model_len` is what
        `--max-model-len` sets. Not cached with `_resolve`: the value is the site's fact."""
        root, _, attr = dotted.partition(".")
        value = values.get(attr) if root in OWN_OBJECT else None
        if value is None or value == dotted:
            return []
        via = f"`{dotted}` is `{value}` (set in `{class_name}.__init__`)"
        read = self.dict_read(value)
        if read is not None:
            return self._init_key(read, dotted, value, via, facts, class_name)
        if value.endswith(")"):
            return []  # a getter's call that reads no key of a flag's dict
        held = self._annotated_root(value, facts, class_name)
        if held is None:
            return []  # the constructor's parameter is another kind of configuration
        if held != value:
            via += f", `{value.partition('.')[0]}` being the object `{held.partition('.')[0]}`"
            value = held
        out: list[KnobLink] = []
        for knob in self._handed_on(value, facts, class_name, depth=1):
            keyed = self._held_key(knob, value) or _nested_key(knob, value)
            # only a setting that gives the value itself: one key of a JSON-valued flag's
            # object (`self._backend = attention_config.trtllm_ragged_backend`) or of a
            # section of it, not a flag behind a part of it, nor one whose value is a whole
            # configuration object
            if not keyed and not (
                knob.same_value
                and knob.sets is None
                and knob.behind == value
                and not knob.json_fields
                and not whole_object(knob.value_type)
                and (knob.kind != KnobKind.FLAG or self.flags.declares(*_last_two(value)))
            ):
                continue
            out.extend(msgspec.structs.replace(k, behind=dotted, via=via) for k in keyed or [knob])
        return out

    def _init_key(
        self,
        read: DictRead,
        dotted: str,
        value: str,
        via: str,
        facts: FileFacts,
        class_name: str | None,
    ) -> list[KnobLink]:
        """The JSON-valued flag with its key behind `self.X` that the constructor set to
        one key read of the flag's free dict (`self.fallback = extra.pop("fallback", True)`,
        `extra` a copy of `load_config.model_loader_extra_config`: `SourceRead.init_values`
        writes the dict's chain in place of the local)."""
        held = self._annotated_root(read.receiver, facts, class_name)
        if held is None:
            return []  # a parameter annotated as another kind of configuration
        binding = Binding(name=dotted, value=value, line=0)
        return [
            msgspec.structs.replace(k, via=f"{via}; {k.via}" if k.via else via)
            for k in self._dict_key(
                read._replace(receiver=held), binding, dotted, facts, class_name, {}, 0, named=False
            )
        ]

    def assigned_size(self, dotted: str, facts: FileFacts, class_name: str) -> tuple[KnobLink, ...]:
        """The size flag behind `self.X` (`dotted`, read in a method of `class_name`) that
        the nearest of the class and its bases assigning it sets to a group accessor's call
        each time (`self.tp_size = get_tensor_model_parallel_world_size()` in a base's
        `__init__`, `ClassFact.attr_classes`), as for a local so bound: the flag the group is
        built from. Nothing for another call's result (a rank, a lock, a layer): no setting
        gives it. Once per (module, class, attribute)."""
        root, _, attr = dotted.partition(".")
        if root != "self" or not attr or "." in attr:
            return ()
        key = (facts.module, class_name, attr)
        found = self._sizes.get(key)
        if found is None:
            found = self._sizes[key] = tuple(self._assigned_size(dotted, attr, facts, class_name))
        return found

    def _assigned_size(
        self, dotted: str, attr: str, facts: FileFacts, class_name: str
    ) -> Iterator[KnobLink]:
        for cls in self._names.class_and_bases(facts, class_name):
            written = cls.fact.attr_classes.get(attr)
            if written is None and attr not in cls.fact.methods:
                continue  # the class neither assigns it nor defines it as a property
            accessor = written[:-2] if written and written.endswith("()") else None
            if accessor is None or not accessor.isidentifier():
                return  # the nearest class that says what it is says something else
            via = f"`{dotted}` is `{written}`, which `{cls.fact.qualname}` assigns it"
            for k in self._resolve(accessor, cls.file, cls.fact.qualname, {}, 1):
                if k.group_size and k.kind == KnobKind.FLAG:
                    yield msgspec.structs.replace(
                        k, behind=dotted, via=f"{via}; {k.via}" if k.via else via
                    )
            return

    def _handed_on(
        self, value: str, facts: FileFacts, class_name: str | None, depth: int
    ) -> tuple[KnobLink, ...]:
        """The knobs behind a value handed on (by a constructor, a local, a call), with no
        local of its own: those its name matches, else those that write it under another
        name (`_renamed`)."""
        return self._resolve(value, facts, class_name, {}, depth) or self._renamed(value)

    def _renamed(self, value: str) -> tuple[KnobLink, ...]:
        """The flags that write `value`, a settings object's field, under another name
        (`cache_config.cache_dtype`: `--kv-cache-dtype`): for a value handed on by a
        constructor, a local or a call, or read of an object a local or an annotated
        parameter holds, where no flag of the field's own name matches. A check reading
        `self.x.field` is not asked: the flags of other names would crowd the settings of
        a configuration class's own long checks (`self.mamba_config.x` of its
        `__post_init__`)."""
        parts = value.split(".")
        if len(parts) < 2 or parts[-2] in OWN_OBJECT:
            return ()
        return tuple(
            msgspec.structs.replace(k, behind=value)
            for k in self.flags.renamed_flags(parts[-2], parts[-1])
        )

    def _annotated_root(self, value: str, facts: FileFacts, class_name: str | None) -> str | None:
        """`value` as the object its root holds is named, where the root is a parameter
        of the class's constructor annotated as a settings class held under another name
        (`spec_config: SpeculativeConfig` → `speculative_config.x`); `value` as it is for
        any other root; None for a parameter annotated as another `...Config` class (a
        checkpoint's, a kernel's): no flag writes its fields, whatever they are named."""
        root, _, rest = value.partition(".")
        typed = facts.params.get(f"{class_name}.__init__") if class_name else None
        annotated = typed.get(root) if typed else None
        if annotated is None:
            return value
        short = annotated.rsplit(".", 1)[-1]
        if not short.endswith("Config"):
            return value
        if not self.flags.settings_class(short):
            return None
        held = self.flags.held_as(short)
        return f"{held}.{rest}" if held not in (None, root) else value

    def _held_key(self, knob: KnobLink, value: str) -> list[KnobLink]:
        """For a name holding one key of a JSON-valued flag's object as it is (`value` is
        `vllm_config.compilation_config.mode`, `knob` that object's `--compilation-config`):
        the flag with that key, after the plain flags that write the key when given; none
        when `knob` is no such flag, or the object's constructor does not take the key."""
        if knob.kind != KnobKind.FLAG or knob.json_key is not None:
            return []
        receiver, key = _last_two(value)
        if not self.flags.user_key(key):
            return []
        keyed = giving(knob, value)
        if keyed is None or keyed.json_key is None or not self.flags.takes_key(receiver, key):
            return []
        # a yes/no key is turned with `false` or `true` in the JSON; one of another type
        # gets no value for a truth test
        keyed = msgspec.structs.replace(
            keyed, key_default=self.flags.key_default(receiver, key) or None, key_defaults=()
        )
        return [*self.flags.plain_flags(keyed), keyed]

    def _through_sets(self, dotted: str, class_name: str | None, depth: int) -> list[KnobLink]:
        """The settings behind the guard of an assignment of the attribute elsewhere in the
        version: `cudagraph_mode` is set to `NONE` when `self.model_config.enforce_eager`,
        which `--enforce-eager` sets."""
        out: list[KnobLink] = []
        candidates = self._sets.get(dotted.rsplit(".", 1)[-1])
        if not candidates:
            return out  # most attributes: no assignment under an `if` anywhere
        receiver = receiver_name(dotted, class_name)
        sets = [
            (found, where)
            for found, where in candidates
            if receiver_name(found.target, found.class_name) == receiver
        ]
        for found, where in sets[:_MAX_SETS_PER_ATTR]:
            guard = parse_expression(found.guard)
            if guard is None:
                continue
            is_and = isinstance(guard, ast.BoolOp) and isinstance(guard.op, ast.And)
            for conjunct in guard.values if isinstance(guard, ast.BoolOp) and is_and else [guard]:
                for name in dotted_names(conjunct):
                    for knob in self._resolve(name, where, found.class_name, {}, depth + 1):
                        # a configuration class's own key in the guard: the class fills in
                        # its fields by the user's other keys, no setting of this one
                        if knob.sets is not None or not knob.same_value or knob.json_key:
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

    def _through_property(
        self, attr: str, dotted: str, facts: FileFacts, class_name: str, depth: int
    ) -> list[KnobLink]:
        found = self._property(facts, class_name, attr)
        if found is None:
            return []
        return self._property_knobs(*found, dotted, depth)

    def _through_named_property(
        self, receiver: str, attr: str, dotted: str, depth: int
    ) -> list[KnobLink]:
        """`cache_config.device_memory_utilization`: the setting behind what the property of the
        one settings class named for the object returns as it is (one of the class's keys,
        or an environment variable). Two classes of that name, or none: nothing is guessed;
        a property computed from several values (`self.enable_dbo or self.ubatch_size > 1`)
        is left alone: the knobs of its parts would each be named with no value to give."""
        found = self._named_properties.get((receiver, attr))
        if found is None or len(found) != 1:
            return []
        prop, where = found[0]
        owner = prop.qualname.rpartition(".")[0]
        if not self.flags.settings_class(owner) or not _one_value(prop, self.flags.keys_of(owner)):
            return []
        return self._property_knobs(prop, where, dotted, depth)

    def _property_knobs(
        self, prop: PropertyFact, where: FileFacts, dotted: str, depth: int
    ) -> list[KnobLink]:
        owner = prop.qualname.rpartition(".")[0]
        via = property_via(prop.qualname, where.path, prop.line)
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
        self,
        binding: Binding,
        dotted: str,
        facts: FileFacts,
        class_name: str | None,
        depth: int,
        local: Mapping[str, Binding] | None = None,
    ) -> list[KnobLink]:
        value = bound_value(binding, facts)
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
        read = self.dict_read(binding.value) if value.alias is None else None
        if read is not None:
            return self._dict_key(read, binding, dotted, facts, class_name, local, depth)
        if value.alias is not None:
            via = f"the local `{binding.name}` = `{value.alias}` (line {binding.line})"
            return [
                # a configuration class's own key keeps saying so (`linked_facts.OWN_KEY`), a
                # group's size the chain to its flag
                msgspec.structs.replace(
                    k,
                    behind=dotted,
                    via=f"{via}; {k.via}" if own_key(k.json_key, k.via) or k.group_size else via,
                )
                for found in self._handed_on(value.alias, facts, class_name, depth + 1)
                # one key of a JSON-valued flag's object: that key, not the whole object
                for k in self._held_key(found, value.alias) or _whole(found, value.alias)
            ]
        got = self._through_getter(binding, dotted, facts, class_name, depth)
        if got:
            return got
        # A local computed from settings: the knobs behind the names it is made of.
        out: list[KnobLink] = []
        for inner in value.names:
            out.extend(self._resolve(inner, facts, class_name, {}, depth + 1))
        # a local holding a group accessor's size (`tp = get_tp_world_size()`): the flag is
        # behind the local, as the condition writes it
        return [
            msgspec.structs.replace(
                k,
                behind=dotted,
                via=f"the local `{binding.name}` = `{binding.value}` "
                f"(line {binding.line}); {k.via}",
            )
            if k.kind == KnobKind.FLAG and k.behind == binding.value
            else k
            for k in out
        ]

    def _through_getter(
        self,
        binding: Binding,
        dotted: str,
        facts: FileFacts,
        class_name: str | None,
        depth: int,
    ) -> list[KnobLink]:
        """A local a configuration object's getter gives (`kv_dtype = vllm_config.
        attention_config.resolve_indexer_kv_dtype("fp8")`, which returns the object's key
        `indexer_kv_dtype`, or its argument when the key is "auto"): the key of the flag's
        JSON behind that object, as for a local bound to the key itself. The value is the
        key's own except where the method substitutes its argument, so the key's default
        is not what the check reads: none is said."""
        call = _method_call(binding.value)
        if call is None:
            return []
        receiver, method = call
        getters = self._getters.get((receiver.rsplit(".", 1)[-1], method))
        if not getters or len(getters) != 1:
            return []  # no such method, or two classes of that name: nothing is guessed
        getter = getters[0]
        owner = getter.qualname.rpartition(".")[0]
        keys = [r.partition(".")[2] for r in getter.returns if "." in r]
        if len(keys) != 1 or not self.flags.settings_class(owner):
            return []
        if keys[0] not in self.flags.keys_of(owner):
            return []  # an attribute the object works out, not a key the user writes
        held = f"{receiver}.{keys[0]}"
        substitutes = len(getter.returns) > 1
        via = (
            f"the local `{binding.name}` = `{binding.value}` (line {binding.line}); "
            f"`{getter.qualname}` returns `self.{keys[0]}`"
            + (" unless it gives its argument in its place" if substitutes else "")
        )
        out: list[KnobLink] = []
        for found in self._resolve(held, facts, class_name, {}, depth + 1):
            # the key of a JSON-valued flag's object (and the plain flags writing it), or
            # a setting that gives the attribute itself
            given = self._held_key(found, held)
            if not given and found.behind == held and found.same_value and found.sets is None:
                given = [found]
            for k in given:
                out.append(
                    msgspec.structs.replace(
                        k,
                        behind=dotted,
                        via=via,
                        key_default=None if substitutes else k.key_default,
                    )
                )
        return out

    def dict_read(self, text: str) -> DictRead | None:
        """The key a value reads of a dict (`dict_keys.dict_read`), or of the dict a
        configuration object's key getter reads (`kv_config.get_from_extra_config("k", d)`,
        whose method returns `self.kv_connector_extra_config.get(key, default)`): that
        dict's key, as `kv_config.kv_connector_extra_config.get("k", d)` reads it."""
        read = dict_read(text)
        if read is not None or not self._key_getters:
            return read
        call = _method_call(text)
        if call is None or call[1] not in self._key_getters:
            return None
        receiver, method = call
        held = self._key_getters[method]
        # the class the object is named for (`_kv_transfer_config`), else the one class
        # defining the method: two classes of that method, and a name of neither, say
        # nothing of which dict it reads
        named = receiver.rsplit(".", 1)[-1].lstrip("_")
        found = [h for o, h in held if o == named] or ([held[0][1]] if len(held) == 1 else [])
        if len(found) != 1 or not found[0]:
            return None
        node = parse_expression(text)
        if not isinstance(node, ast.Call) or node.keywords or not 1 <= len(node.args) <= 2:
            return None
        key = node.args[0]
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if not key.value.isidentifier():
            return None
        default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
        if not isinstance(default, ast.Constant):
            return None  # a default computed elsewhere: leaving the key out gives what?
        return DictRead(f"{receiver}.{found[0]}", key.value, repr(default.value))

    def passed_key(
        self, value: str, param: str, facts: FileFacts, class_name: str | None
    ) -> list[KnobLink]:
        """The JSON-valued flag with its key, where a call gives the parameter `param` one
        key read of that flag's dict (`resolve(backend)`, the caller's `backend` being
        `vllm_config.additional_config.get("k", "auto")`: `CallSite.passes`)."""
        read = self.dict_read(value)
        if read is None:
            return []
        held = Binding(name=param, value=value, line=0)
        return [
            self._json_overrides(self._documented(k, class_name))
            for k in self._dict_key(read, held, param, facts, class_name, {}, 0, named=False)
        ]

    def _dict_key(
        self,
        read: DictRead,
        binding: Binding,
        dotted: str,
        facts: FileFacts,
        class_name: str | None,
        local: Mapping[str, Binding] | None,
        depth: int,
        named: bool = True,
    ) -> list[KnobLink]:
        """A local reading one key of a free dict a JSON-valued flag gives: the flag's whole
        value (`--model-loader-extra-config`), or a dict-valued key of its object
        (`kv_connector_extra_config` of `--kv-transfer-config`); the flag with that key.
        The dict is followed through the function's locals that hold it as it is; not
        `named`: the read is a caller's argument, no local of the function asking."""
        held = _held_dict(read.receiver, local or {})
        # `self._cfg.extra` where a constructor copied `vllm_config.transfer_config` onto
        # `self._cfg`: the chain read as the class that copies it reads it
        copied = self._copied_roots.of(held, facts, class_name)
        where, owner = facts, class_name
        if copied is not None:
            held, where, owner = copied.dotted, copied.facts, copied.class_name
        out: list[KnobLink] = []
        for knob in self._resolve(held, where, owner, {}, depth + 1):
            if copied is not None:
                knob = msgspec.structs.replace(
                    knob, via=f"{copied.via}; {knob.via}" if knob.via else copied.via
                )
            keyed = giving(knob, held) if knob.kind == KnobKind.FLAG else None
            if keyed is None or keyed.dict_key is not None:
                continue
            field = keyed.name.lstrip("-").replace("-", "_")
            if keyed.json_key is None and self.flags.free_dict(field):
                outer = read.key  # the flag's value is the dict itself
            elif keyed.json_key is not None and self.flags.dict_key_of(*_last_two(held)):
                outer = keyed.json_key
            else:
                continue
            via = (
                f"the local `{binding.name}` = `{binding.value}` (line {binding.line}) reads "
                f"the key `{read.key}` of `{held}`"
                if named
                else f"{PASSED_KEY} `{read.key}` of `{held}`"
            )
            # a flag of the key's own name, beside the dict's, may write it over the JSON
            # (`additional_config["kda_prefill_backend"] = self.kda_prefill_backend`), which
            # the index does not show: the key is only named, as one of no known type
            own = not (outer == read.key and self.flags.beside(field, read.key))
            yes_no = own and read.default in ("True", "False")
            out.append(
                msgspec.structs.replace(
                    keyed,
                    behind=dotted,
                    via=f"{via}; {knob.via}" if knob.via else via,
                    json_key=outer,
                    dict_key=read.key if own else None,
                    dict_default=read.default if own else None,
                    key_default=read.default if yes_no else None,
                    key_defaults=(),
                    json_fields=(),
                )
            )
        return out

    def field_flag(self, name: str) -> KnobLink | None:
        """The flag that sets the field `name` of an arguments class (`EngineArgs`), or that
        argparse declares with that destination."""
        return self.flags.field_flag(name)


_MAX_DICT_HOPS = 2  # locals followed back to the dict a key is read of


def _held_dict(receiver: str, local: Mapping[str, Binding]) -> str:
    """The dict `receiver` names, through the locals holding it as it is (`extra =
    kv_transfer_config.kv_connector_extra_config or {}`)."""
    for _ in range(_MAX_DICT_HOPS):
        root, dot, rest = receiver.partition(".")
        binding = local.get(root)
        if binding is None:
            break
        value = local_value(binding.value)
        alias = dict_alias(binding.value) or (value.alias if value is not None else None)
        if alias is None or alias.partition(".")[0] == root:
            break
        receiver = alias + dot + rest
    return receiver


def _method_call(text: str) -> tuple[str, str] | None:
    """The object and the method of a value that is one call of a method on a dotted name
    (`vllm_config.attention_config.resolve_indexer_kv_dtype("fp8")`), or None."""
    if not text.endswith(")") or "_config." not in text:
        return None  # most locals: no call on a configuration object
    value = parse_expression(text)
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return None
    receiver = value.func.value
    name = dotted_name(receiver) if isinstance(receiver, ast.Name | ast.Attribute) else None
    if name is None:
        return None
    return name, value.func.attr


def _one_value(prop: PropertyFact, keys: set[str]) -> bool:
    """Whether the property returns one of the class's keys (`return self.x`) or one
    environment variable as it is, and reads nothing else."""
    if prop.env_reads:
        return not prop.reads and len(prop.env_reads) == 1 and prop.returns_env == prop.env_reads
    if len(prop.returns) != 1 or set(prop.reads) - set(prop.returns):
        return False
    first, _, field = prop.returns[0].partition(".")
    return first in OWN_OBJECT and field in keys


def _whole(knob: KnobLink, value: str) -> list[KnobLink]:
    """The knob a local holding `value` is behind as it is; for a JSON-valued flag whose
    object only holds `value` (`attention_config` for `attention_config.hisparse_config`, a
    section `_held_key` takes for no key of the user's), marked so that no attribute of
    the local is written at the top of the flag's JSON (`SECTION_FIELDS`): its keys nest
    under the section, and the object refuses keys it does not declare."""
    if (
        knob.kind == KnobKind.FLAG
        and whole_object(knob.value_type)
        and value.startswith(knob.behind + ".")
    ):
        return [msgspec.structs.replace(knob, json_fields=(*knob.json_fields, SECTION_FIELDS))]
    return [knob]


def _nested_key(knob: KnobLink, value: str) -> list[KnobLink]:
    """The knob of a key nested in a section of a JSON-valued flag's object when it gives
    `value` as it is (`FlagIndex._section_key`)."""
    nested = knob.json_key is not None and knob.dict_key is not None
    return [knob] if nested and knob.behind == value and knob.same_value else []


def _last_two(dotted: str) -> tuple[str, str]:
    """The object and the attribute read of it: `model_config`, `max_model_len`."""
    parts = dotted.split(".")
    return (parts[-2] if len(parts) >= 2 else "", parts[-1])


def whole_object(declared: str | None) -> bool:
    """A field declared as a configuration class or a dict: its flag takes a JSON object."""
    declared = declared or ""
    return "Config" in declared or declared.startswith(("dict", "Dict"))


def receiver_name(dotted: str, class_name: str | None) -> str:
    """What an attribute is of, by name: `compilation_config` for
    `self.compilation_config.mode`, and for `self.mode` in `CompilationConfig` too."""
    parts = dotted.split(".")
    owner = parts[-2] if len(parts) >= 2 else ""
    if owner in OWN_OBJECT and class_name:
        owner = object_name(class_name)
    return owner


def giving(knob: KnobLink, value: str) -> KnobLink | None:
    """The knob when it gives `value` as it is: an environment variable or a flag behind
    the name itself, or a flag taking a JSON object whose field the name is
    (`attention_config.backend` under `--attention-config`), with that field."""
    if not knob.same_value or knob.sets is not None or knob.json_fields:
        return None
    if knob.kind not in (KnobKind.ENV, KnobKind.FLAG):
        return None
    if knob.behind == value:
        return knob
    owner, _, field = value.rpartition(".")
    if knob.kind == KnobKind.FLAG and owner == knob.behind and whole_object(knob.value_type):
        return msgspec.structs.replace(knob, json_key=field)
    return None
