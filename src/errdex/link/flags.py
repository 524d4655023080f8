"""Flags: the command-line flag (and its Python entry point) that sets a named attribute.

`config.some_name` / `args.some_name` is the flag `--some-name` when argparse declares it,
or when a `*Args` dataclass has a field of that name (fields become flags); an attribute of
a JSON-valued field (`attention_config.backend`) is set through that field's flag. The
field's docstring and the public class a user builds with the same keywords (vllm's `LLM`
for `EngineArgs`) come with it.
"""

from __future__ import annotations

import re

import msgspec

from errdex.extract.docs import DOC_OF
from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import FileFacts, FlagFact, KnobKind, PropertyFact
from errdex.lazy_re import lazy_compile
from errdex.link.parsed_classes import field_flag, generator_read
from errdex.link.settings_classes import object_name, settings_classes
from errdex.linked_facts import EMPTY_SECTION, OWN_KEY, KnobLink

# The receiver of an attribute that a flag may set: `self.model_config`, `args`, `opts`.
_CONFIG_RECEIVER = lazy_compile(r"(?:config|args|arguments|options|opts|settings|cfg)$", re.I)
# Classes whose own fields a flag of the same name may set: `ModelConfig`, `EngineArgs`.
_CONFIG_CLASS = lazy_compile(r"(?:Config|Args|Arguments|Options|Settings)$")
# Classes whose fields are command-line flags as they are named: `EngineArgs`.
_ARGS_CLASS = lazy_compile(r"(?:Args|Arguments)$")
# A class is the Python entry point of an arguments dataclass when its constructor takes at
# least this many of the dataclass's fields as keywords.
_MIN_SHARED_KEYWORDS = 5
_MAX_DEFAULT_HOPS = 3  # class fields followed to a field's literal default


class FlagIndex:
    """The version's flags, configuration fields and their docs, for naming a flag."""

    def __init__(
        self,
        files: list[FileFacts],
        properties: dict[tuple[str, str], tuple[PropertyFact, FileFacts]],
    ) -> None:
        self._properties = properties  # (module, Class.name) → the property, its file
        self._flags: dict[str, tuple[str, str, int]] = {}  # dest → (flag, file, line)
        self._forms: dict[str, FlagFact] = {}  # dest → the declaration of that flag
        # dest → each file declaring a flag of it → that declaration
        self._declared_in: dict[str, dict[str, FlagFact]] = {}
        # a class's short name → its fields' literal defaults, or another class's field
        # (None where two classes of that name disagree)
        self._defaults: dict[str, dict[str, str | None]] = {}
        self._fields: dict[str, tuple[str, str, str, int]] = {}  # name → (class, type, file, line)
        self._args_fields: dict[str, set[str]] = {}  # arguments class → its fields
        # a field name → every arguments class declaring it (class, type, file, line)
        self._all_fields: dict[str, list[tuple[str, str, str, int]]] = {}
        # the arguments classes whose fields a generator makes flags (None: none seen)
        self._read = generator_read(files)
        # public classes whose constructor takes keywords: (module.Class, parameters)
        self._constructors: list[tuple[str, tuple[str, ...]]] = []
        self._entries: dict[str, tuple[str, tuple[str, ...]] | None] = {}
        # a field name → (its class, its docstring) for every class documenting it
        self._field_docs: dict[str, list[tuple[str, str]]] = {}
        # a class's short name → its module-qualified names and the functions of its body
        # (properties and methods: no key of a JSON object validated against its fields)
        self._members: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        # a configuration class's short name → the keys its constructor takes
        self._keys: dict[str, set[str]] = {}
        # such a class's short name → those of its keys declared as a dict
        self._dict_valued: dict[str, set[str]] = {}
        # such a class's short name → those of its keys declared `bool | None`
        self._optional_bools: dict[str, set[str]] = {}
        # such a class's short name → its keys that are sections (→ their class's name)
        self._sections: dict[str, dict[str, str]] = {}
        # the configuration classes some declaration of which requires a key, itself or
        # through a base of the version: a JSON object `{}` of them is not known to be taken
        self._requiring: set[str] = set()
        based: dict[str, set[str]] = {}  # such a class's short name → its bases' short names
        defined: set[str] = set()  # the short names of every class of the version
        # such a class's short name → the class-level names its body documents (fields,
        # those the constructor does not take among them)
        self._declared: dict[str, set[str]] = {}
        # `Class.attr` → the arguments fields defaulting to it (built when first asked)
        self._defaulting: dict[str, list[str]] | None = None
        self._matched: dict[tuple[str, str, str, str | None, str | None], KnobLink | None] = {}
        self._settings: dict[str, str | None] | None = None  # built when first asked
        # a section's class → the classes holding it and their key (built when first asked)
        self._holders: dict[str, list[tuple[str, str]]] | None = None
        for facts in files:
            if facts.error is not None:
                continue
            for flag in facts.flags:
                dest = flag.flag[2:].replace("-", "_")
                self._flags.setdefault(dest, (flag.flag, facts.path, flag.line))
                self._forms.setdefault(dest, flag)
                self._declared_in.setdefault(dest, {}).setdefault(facts.path, flag)
            for cls in facts.classes:
                defined.add(cls.name)
                known = self._defaults.setdefault(cls.name, {})
                for field, default in cls.defaults.items():
                    known[field] = default if known.get(field, default) == default else None
                if cls.keys:
                    self._keys.setdefault(cls.name, set()).update(cls.keys)
                    self._dict_valued.setdefault(cls.name, set()).update(cls.dict_valued)
                    bools = self._optional_bools.setdefault(cls.name, set())
                    bools.update(cls.optional_bools)
                    self._sections.setdefault(cls.name, {}).update(cls.sections)
                    if cls.required:
                        self._requiring.add(cls.name)
                    based.setdefault(cls.name, set()).update(_base_names(cls.bases))
                    self._declared.setdefault(cls.name, set()).update(cls.field_docs)
                if cls.methods:
                    self._members.setdefault(cls.name, []).append(
                        (f"{facts.module}.{cls.qualname}", cls.methods)
                    )
                for field, doc in cls.field_docs.items():
                    self._field_docs.setdefault(field, []).append((cls.qualname, doc))
                for field, annotation in cls.fields.items():
                    where = (cls.qualname, annotation, facts.path, cls.line)
                    self._fields.setdefault(field, where)
                    self._all_fields.setdefault(field, []).append(where)
                if cls.fields:
                    self._args_fields.setdefault(cls.qualname, set(cls.fields))
                elif _entry_class(cls.qualname, cls.init_params):
                    entry = f"{facts.module}.{cls.qualname}"
                    self._constructors.append((entry, cls.init_params))
        self._requiring = {
            name for name in based if _requires(name, self._requiring, based, defined, set())
        }
        # every field name of an arguments class (`EngineArgs`): built once, asked per
        # named field of every message
        self._args_named: set[str] = {
            name
            for cls, fields in self._args_fields.items()
            if _ARGS_CLASS.search(cls)
            for name in fields
        }

    def matchable(self) -> tuple[set[str], set[str]]:
        """The attributes `flag` can match a name by (a flag's destination, an arguments
        field), and the objects (`attention_config` of `attention_config.backend`: a field
        whose flag takes JSON)."""
        return {*self._flags, *self._fields}, set(self._fields)

    def keys(self) -> set[str]:
        """Every configuration class's keys: what `own_json_key` can match `self.x` by."""
        return {key for keys in self._keys.values() for key in keys}

    def field_doc(self, field: str, behind: str, class_name: str | None) -> str | None:
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

    def key_doc(self, knob: KnobLink) -> str | None:
        """The doc of the key of a JSON-valued flag's object a knob holds (`json_key`),
        declared in the class the flag's object is (`use_x` of `SpeculativeConfig` for
        `--speculative-config`), wherever the name holding it was read."""
        if knob.json_key is None or knob.kind != KnobKind.FLAG:
            return None
        owner = self._object_class(knob.name.lstrip("-").replace("-", "_"))
        if owner is None:
            return None
        return self.field_doc(knob.json_key, f"self.{knob.json_key}", owner)

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

    def declares(self, receiver: str, attr: str) -> bool:
        """Whether the class an object is named for declares the field: `model_config` →
        `ModelConfig.max_model_len`. A flag matched by name alone on an object of another
        kind (a checkpoint's `config.hidden_size`) says nothing of it."""
        owner = named_class(receiver)
        if attr in self._args_fields.get(owner, ()):
            return True
        # a documented field of that class, or one an arguments class's field defaults to
        # (`max_model_len: int = ModelConfig.max_model_len`)
        return any(
            qualname.rsplit(".", 1)[-1] == owner or doc == f"{DOC_OF}{owner}.{attr}"
            for qualname, doc in self._field_docs.get(attr, ())
        )

    def settings_class(self, name: str) -> bool:
        """Whether the configuration class of that short name holds settings the user's flags
        write (`settings_classes`)."""
        return name in self._settings_classes()

    def keys_of(self, name: str) -> set[str]:
        """The keys the constructor of the configuration class of that short name takes."""
        return self._keys.get(name, set())

    def held_as(self, name: str) -> str | None:
        """The arguments field that holds the settings class's object (`speculative_config`
        for `SpeculativeConfig`), or None."""
        return self._settings_classes().get(name)

    def _settings_classes(self) -> dict[str, str | None]:
        if self._settings is None:
            fields = [
                (field, where[1])
                for field, found in self._all_fields.items()
                for where in found
                if _ARGS_CLASS.search(where[0])
            ]
            docs = [
                d for docs in self._field_docs.values() for c, d in docs if _ARGS_CLASS.search(c)
            ]
            classes = {*self._keys, *(c.rsplit(".", 1)[-1] for c in self._args_fields)}
            self._settings = settings_classes(classes, fields, docs)
        return self._settings

    def plain_flags(self, knob: KnobLink) -> list[KnobLink]:
        """For a field of a JSON-valued flag's object, the plain flags that write that
        field too (`--attention-backend` for `backend` of `--attention-config`): a user
        gives the value with either."""
        if knob.json_key is None:
            return []
        receiver = knob.name.lstrip("-").replace("-", "_")
        # the class named for the flag when its field's declaration names none
        owner = self._object_class(receiver) or named_class(receiver)
        return self.flags_defaulting_to(owner, knob.json_key)

    def flags_defaulting_to(self, owner: str, attr: str) -> list[KnobLink]:
        """The flags of an arguments class's fields that default to another class's field
        (`attention_backend: ... = AttentionConfig.backend`): each writes that field when
        given, beside the JSON-valued flag of the object (`--attention-config`)."""
        if self._defaulting is None:
            # each arguments field once, by the field it defaults to, not every field for
            # each one asked about (every configuration key a site reads is)
            self._defaulting = {}
            for field, docs in self._field_docs.items():
                for doc in dict.fromkeys(d for c, d in docs if _ARGS_CLASS.search(c)):
                    if doc.startswith(DOC_OF):
                        self._defaulting.setdefault(doc[len(DOC_OF) :], []).append(field)
        out: list[KnobLink] = []
        for field in self._defaulting.get(f"{owner}.{attr}", ()):
            found = self.field_flag(field)
            if found is not None:
                out.append(found)
        return out

    def renamed_flags(self, receiver: str, attr: str) -> list[KnobLink]:
        """The flags of arguments fields that default to the field `attr` of the settings
        class the object `receiver` is named for, when no flag has the field's own name
        (`cache_config.cache_dtype`: `kv_cache_dtype: CacheDType = CacheConfig.cache_dtype`,
        `--kv-cache-dtype`)."""
        owner = named_class(receiver)
        if attr in self._flags or attr in self._args_named or not self.settings_class(owner):
            return []
        return self.flags_defaulting_to(owner, attr)

    def field_flag(self, name: str) -> KnobLink | None:
        """The flag that sets the field `name` of an arguments class (`EngineArgs`), or that
        argparse declares with that destination: how a user gives a value a field of that
        name holds elsewhere (a registry's member)."""
        if name not in self._flags and name not in self._args_named:
            return None
        return self.flag(["args", name], f"args.{name}", None)

    def args_field_flag(self, name: str) -> KnobLink | None:
        """The flag of the field `name` of an arguments class (`EngineArgs.kv_cache_dtype`):
        a setting of the program's own command line, not a script's flag of that name."""
        if name not in self._args_named:
            return None
        return self.flag(["args", name], f"args.{name}", None)

    def _json_flag_field(self, name: str) -> bool:
        """Whether `name` is a field of an arguments class whose flag takes a JSON object
        (declared as a configuration class or a dict)."""
        field = self._fields.get(name)
        if field is None or not ("Config" in field[1] or field[1].startswith(("dict", "Dict"))):
            return False
        return name in self._args_named

    def _state_field(self, receiver: str, attr: str) -> bool:
        """Whether `attr` of the JSON-valued field `receiver` is a name its configuration
        class declares in its body but its constructor does not take (`field(init=False)`,
        a `ClassVar`: state the program fills in, `static_forward_context`): no key of the
        flag's JSON sets it. Only a name the class itself declares counts (one it inherits,
        or sets in a method, is not known here)."""
        owner = self._annotated_class(receiver)
        return owner is not None and (
            attr in self._declared.get(owner, ()) and attr not in self._keys[owner]
        )

    def _annotated_class(self, receiver: str) -> str | None:
        """The configuration class the JSON-valued field `receiver` is declared as
        (`kernel_config: KernelConfig`), when its declaration names exactly one."""
        declared = self._fields.get(receiver)
        if declared is None:
            return None
        words = [w for w in re.findall(r"[A-Za-z_]\w*", declared[1]) if w in self._keys]
        return words[0] if len(words) == 1 else None

    def _object_class(self, receiver: str) -> str | None:
        """The configuration class whose object the JSON-valued field `receiver` takes: the
        one it is declared as, else the one class named for it (`speculative_config:
        dict | None` holds a `SpeculativeConfig`)."""
        found = self._annotated_class(receiver)
        if found is not None or receiver not in self._fields:
            return found
        named = [c for c in self._keys if object_name(c) == receiver]
        return named[0] if len(named) == 1 else None

    def free_dict(self, receiver: str) -> bool:
        """Whether the JSON-valued field `receiver` takes a dict of its own keys, no
        configuration class's object (`model_loader_extra_config: dict`): no class's
        validator reads its keys."""
        declared = self._fields.get(receiver)
        return (
            declared is not None
            and declared[1].startswith(("dict", "Dict"))
            and self._json_flag_field(receiver)
            and self._object_class(receiver) is None
        )

    def beside(self, field: str, name: str) -> bool:
        """Whether an arguments class declaring the field `field` declares `name` too
        (`kda_prefill_backend` beside `additional_config` in `EngineArgs`)."""
        return any(
            field in fields and name in fields
            for cls, fields in self._args_fields.items()
            if _ARGS_CLASS.search(cls)
        )

    def takes_key(self, receiver: str, attr: str) -> bool:
        """Whether the object the JSON-valued field `receiver` takes has `attr` among its
        constructor's keys: a key the flag's JSON sets."""
        owner = self._object_class(receiver)
        return owner is not None and attr in self._keys[owner]

    @staticmethod
    def user_key(name: str) -> bool:
        """Whether a key of a configuration object may be one a user writes in its flag's
        JSON: not one named for a whole object (`draft_model_config`), which the program
        builds from the user's other keys and passes in."""
        return _CONFIG_RECEIVER.search(name) is None

    def dict_key_of(self, receiver: str, attr: str) -> bool:
        """Whether `attr` is a key of the object the JSON-valued field `receiver` takes,
        declared as a dict: a key whose own keys the user writes in the flag's JSON
        (`kv_connector_extra_config` of `--kv-transfer-config`), not one holding a name."""
        owner = self._object_class(receiver)
        return owner is not None and attr in self._dict_valued.get(owner, ())

    def key_default(self, receiver: str, attr: str) -> str | None:
        """The yes/no default (`True`, `False`) of the key `attr` of the object the
        JSON-valued field `receiver` takes (`kernel_config` → `KernelConfig.monokernel`);
        '' for a key of that object whose default is no yes/no literal (a path, a list, a
        mode, `bool | None`); None when the object's class, or the key, is not known."""
        owner = self._object_class(receiver)
        if owner is None or attr not in self._keys[owner]:
            return None
        return self._yes_no_default(owner, attr) or ""

    def _empty_section(self, receiver: str, attr: str) -> bool:
        """Whether the key `attr` of the object the JSON-valued field `receiver` takes is a
        section whose class is known and requires no key: `{}` is a value of it."""
        section = self._section_class(receiver, attr)
        return section is not None and section in self._keys and section not in self._requiring

    def _section_class(self, field: str, key: str) -> str | None:
        """The class of the section `key` of the object the JSON-valued field `field`
        takes (`compilation_config`, `dynamic_shapes_config`: `DynamicShapesConfig`)."""
        owner = self._object_class(field)
        return self._sections.get(owner, {}).get(key) if owner is not None else None

    def _yes_no_default(self, owner: str, attr: str) -> str | None:
        """The default of the key `attr` of the class `owner` when the key is a yes/no:
        `True`, `False`, or `None` for one declared `bool | None` left None (set, it is
        turned with `true` or `false` as well); None for any other key."""
        default = self._field_default(owner, attr)
        if default == "None" and attr in self._optional_bools.get(owner, ()):
            return default
        return default if default in ("True", "False") else None

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
        # a private field (`_enabled`, set by the class itself) is no key of the JSON either
        plain = plain and not field.startswith("_")
        return field if plain and set(prop.reads) <= {returned} else ""

    def flag(
        self, parts: list[str], dotted: str, class_name: str | None, path: str | None = None
    ) -> KnobLink | None:
        """The flag that sets `dotted` (read as `parts`, its last two the object and the
        attribute) in a method of `class_name` in the file `path`, or None."""
        if len(parts) < 2:
            return None
        # The same attribute is read in many files: each is matched once. The class only
        # counts for an attribute of `self` (whether it is a configuration class's own), the
        # file only where it declares a flag of that name among others.
        receiver = parts[-2]
        own = path if path in self._declared_in.get(parts[-1], {}) else None
        key = (receiver, parts[-1], dotted, class_name if receiver in OWN_OBJECT else None, own)
        if key not in self._matched:
            self._matched[key] = self._flag(parts, dotted, class_name, own)
        return self._matched[key]

    def _flag(
        self, parts: list[str], dotted: str, class_name: str | None, own: str | None = None
    ) -> KnobLink | None:
        name = parts[-1]
        receiver = parts[-2]
        if len(parts) >= 3 and parts[-3] not in OWN_OBJECT and receiver not in OWN_OBJECT:
            nested = self._section_key(parts)
            if nested is not None:
                return nested
        if receiver not in OWN_OBJECT and self._json_flag_field(receiver):
            # `attention_config.backend`, where `--attention-config` takes a JSON object of
            # fields: that flag sets it (a `--backend` of another parser does not)
            if self._state_field(receiver, name):
                return None  # no key of the JSON sets it: the flag does not decide it
            knob = self.flag(["args", receiver], ".".join(parts[:-1]), None)
            if knob is None:
                return None
            instead = self._json_key(receiver, name)
            # the key the JSON sets for it: itself, or the field its property returns
            key = name if instead is None else instead
            default = self.key_default(receiver, key) if key else None
            if default == "" and self._empty_section(receiver, key):
                default = EMPTY_SECTION
            if default is not None:
                knob = msgspec.structs.replace(knob, key_defaults=((key, default),))
            if instead is None:
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
        flag = field_flag(name)
        declared = self._flags.get(name)
        form = self._forms.get(name)
        if own is not None:
            # a flag of that name declared in the file that reads it: that program's own
            # (`--dry-run` of the sweep a class parses, not of another command)
            form = self._declared_in[name][own]
            declared = (form.flag, own, form.line)
        field = self._fields.get(name)
        if declared is not None:
            via = f"argparse declares `{declared[0]}` ({declared[1]}:{declared[2]})"
            if field is not None:
                via += f"; `{field[0]}.{name}` is the field of the same name"
            file, line = declared[1], declared[2]
        elif field is not None:
            field = self._generated_field(name, field)
            if field is None:
                return None  # a field of classes no parser reads: no flag
            via = f"`{field[0]}.{name}` is a command-line field of the same name"
            file, line = field[2], field[3]
        else:
            return None
        value_type = field[1] if field is not None else None
        # a yes/no flag of its own takes no value (`store_true`, `BooleanOptionalAction`)
        bare = declared is not None and form is not None and form.bare
        default = form.default if bare and form is not None else None
        if default is None and field is not None:
            default = self._field_default(field[0].rsplit(".", 1)[-1], name)
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
            default=default,
            bare=bare,
            negated=bare and form is not None and form.negated,
        )

    def _section_key(self, parts: list[str]) -> KnobLink | None:
        """`compilation_config.dynamic_shapes_config.type`, where `--compilation-config`
        takes a JSON object whose key `dynamic_shapes_config` is a section of its own class
        (`DynamicShapesConfig`) and `type` a key of that class: the flag, with the section
        as its key and `type` nested under it (`{"dynamic_shapes_config": {"type": ...}}`).
        None for anything else: a section's name that is no key of the flag's object, or a
        name its class's constructor does not take (state the program fills in)."""
        outer, section, key = parts[-3:]
        if not self._json_flag_field(outer) or not self.user_key(key):
            return None
        if self._json_flag_field(section):
            return None  # the section's own flag (`--eplb-config`): matched by the last two

        inner = self._section_class(outer, section)
        if inner is None or key not in self._keys.get(inner, ()):
            return None
        knob = self.flag(["args", outer], ".".join(parts[:-2]), None)
        if knob is None:
            return None
        via = f"`{key}` is a key of the section `{section}` (`{inner}`) of `{knob.name}`'s JSON"
        return msgspec.structs.replace(
            knob,
            behind=".".join(parts),
            via=f"{via}; {knob.via}" if knob.via else via,
            json_key=section,
            dict_key=key,
            key_default=self._yes_no_default(inner, key),
        )

    def section_doc(self, knob: KnobLink) -> str | None:
        """The doc of a key nested in a section of a JSON-valued flag's object
        (`_section_key`), declared in the section's class."""
        if knob.json_key is None or knob.dict_key is None or knob.kind != KnobKind.FLAG:
            return None
        inner = self._section_class(knob.name.lstrip("-").replace("-", "_"), knob.json_key)
        if inner is None:
            return None
        return self.field_doc(knob.dict_key, f"self.{knob.dict_key}", inner)

    def _field_default(self, owner: str, name: str) -> str | None:
        """The literal default of the field `name` of the class `owner`, followed through
        the class field it defaults to (`= CacheConfig.swa_bounded_replay`): `"True"`,
        `"0"`, `"'auto'"`."""
        for _ in range(_MAX_DEFAULT_HOPS):
            default = self._defaults.get(owner, {}).get(name)
            if default is None:
                return None
            owner, dot, name = default.rpartition(".")
            if not (dot and owner.isidentifier() and name.isidentifier()):
                return default  # a literal (`1.5` too), not another class's field
        return None

    def own_json_key(self, dotted: str, class_name: str | None) -> KnobLink | None:
        """`self.method` read in `SpeculativeConfig`, the class of the object that
        `--speculative-config` takes as JSON: that flag, with the key `method`, when the
        class's constructor takes it and no plain flag writes that field (a flag of the same
        name, or one defaulting to it: `--attention-backend` for `AttentionConfig.backend`;
        that flag, as before). A field named for a whole object (`target_model_config`) is
        one the program passes in, never a key a user writes."""
        receiver, _, name = dotted.partition(".")
        if receiver not in OWN_OBJECT or not name.isidentifier() or class_name is None:
            return None
        owner = class_name.rsplit(".", 1)[-1]
        if name not in self._keys.get(owner, ()) or not self.user_key(name):
            return None
        if name in self._flags or self._fields.get(name, ("",))[0] in self._args_fields:
            # a flag of the same name: the one the code matched so far, and what EngineArgs
            # writes over the JSON's key (`reasoning_config.reasoning_parser =
            # self.reasoning_parser`)
            return None
        receiver = object_name(owner)
        if not self._json_flag_field(receiver) or self.flags_defaulting_to(owner, name):
            return None
        knob = self.flag(["args", receiver], receiver, None)
        if knob is None:
            return None
        via = f"`{name}` {OWN_KEY} `{knob.name}` (`{owner}.{name}`)"
        return msgspec.structs.replace(
            knob,
            behind=dotted,
            json_key=name,
            via=f"{via}; {knob.via}" if knob.via else via,
            key_default=self._yes_no_default(owner, name),
        )

    def section_key(self, dotted: str, class_name: str | None) -> list[KnobLink]:
        """`self.key` read in `PassConfig`, the class of the section `pass_config` of the
        object `--compilation-config` takes (`pass_config: PassConfig` in
        `CompilationConfig`), or `self.pass_config.key` read in `CompilationConfig`: that
        flag, with the section as its key and `key` nested under it (`{"pass_config":
        {"fuse_act_padding": false}}`), as `_section_key` gives `compilation_config.
        pass_config.key`. Nothing for a class held as a section by no class or by several
        (its object may be any of theirs), for a section of a class no JSON-valued flag
        takes (`VllmConfig`'s, whose fields plain flags write under other names: those
        are matched by name where they are read), nor for a name the section's
        constructor does not take (state the program fills in)."""
        parts = dotted.split(".")
        if class_name is None or parts[0] not in OWN_OBJECT or len(parts) not in (2, 3):
            return []
        owner = class_name.rsplit(".", 1)[-1]
        key = parts[-1]
        if len(parts) == 3:
            inner = self._sections.get(owner, {}).get(parts[1])
            holders = [(owner, parts[1])] if inner is not None else []
        else:
            inner, holders = owner, self._section_holders().get(owner, [])
        if inner is None or len(holders) != 1 or not self.user_key(key):
            return []
        if key not in self._keys.get(inner, ()):
            return []
        holder, section = holders[0]
        outer = self._json_holder(holder)
        knob = self.flag(["args", outer], outer, None) if outer is not None else None
        if knob is None:
            return []
        via = f"`{key}` is a key of the section `{section}` (`{inner}`) of `{knob.name}`'s JSON"
        return [
            msgspec.structs.replace(
                knob,
                behind=dotted,
                via=f"{via}; {knob.via}" if knob.via else via,
                json_key=section,
                dict_key=key,
                key_default=self._yes_no_default(inner, key),
            )
        ]

    def _json_holder(self, holder: str) -> str | None:
        """The JSON-valued field whose object is of the class `holder`
        (`compilation_config` for `CompilationConfig`), or None."""
        outer = object_name(holder)
        if not self._json_flag_field(outer) or self._object_class(outer) != holder:
            return None
        return outer

    def section_names(self) -> frozenset[str]:
        """The keys that are sections of the object a JSON-valued flag takes
        (`pass_config` of `CompilationConfig`): what `section_key` can match
        `self.<section>.key` by."""
        return frozenset(
            key
            for holder, sections in self._sections.items()
            if self._json_holder(holder) is not None
            for key in sections
        )

    def _section_holders(self) -> dict[str, list[tuple[str, str]]]:
        """A section's class → each (configuration class, key) declaring a key of it."""
        if self._holders is None:
            self._holders = {}
            for holder, sections in self._sections.items():
                for section, inner in sections.items():
                    self._holders.setdefault(inner, []).append((holder, section))
        return self._holders

    def _generated_field(
        self, name: str, first: tuple[str, str, str, int]
    ) -> tuple[str, str, str, int] | None:
        """The field `name` of an arguments class a generator makes flags (the first
        declared when the version shows no generator), or None when no such class has it."""
        if self._read is None:
            return first
        return next(
            (f for f in self._all_fields.get(name, ()) if f[0].rsplit(".", 1)[-1] in self._read),
            None,
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


def named_class(receiver: str) -> str:
    """The class an object is named for: `model_config` → `ModelConfig`."""
    return "".join(word.capitalize() for word in receiver.split("_"))


def _entry_class(qualname: str, params: tuple[str, ...]) -> bool:
    """A public class, not itself configuration, whose constructor takes keywords."""
    return (
        len(params) >= 2
        and "." not in qualname
        and not qualname.startswith("_")
        and _CONFIG_CLASS.search(qualname) is None
    )


def _base_names(bases: tuple[str, ...]) -> set[str]:
    """The short names of a class's bases as written (`pkg.Base[T]` → `Base`)."""
    return {b.partition("[")[0].rpartition(".")[2] for b in bases}


def _requires(
    name: str, own: set[str], based: dict[str, set[str]], defined: set[str], seen: set[str]
) -> bool:
    """Whether the configuration class `name` requires a key: itself (`own`), or through a
    base that does; a base the version defines but whose keys are not known may (it counts),
    one from outside the version (pydantic's `BaseModel`, `ABC`) adds none."""
    if name in own:
        return True
    seen.add(name)
    for base in based.get(name, set()) - seen:
        if base in based:
            if _requires(base, own, based, defined, seen):
                return True
        elif base in defined:
            return True
    return False
