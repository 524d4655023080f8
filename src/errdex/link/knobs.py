"""Knobs: the environment variables and command-line flags behind names in conditions.

- `envs.VLLM_X` (a module attribute) is an environment variable when that module reads
  `"VLLM_X"` (a getter module such as vllm's `envs.py`, or `X = os.getenv("X")`);
- `os.environ.get("X")`, `os.getenv("X")`, `os.environ["X"]` written in a condition, or
  in the local a condition tests, are environment variables as they stand;
- `self.name` is what the property `name` of the class (or a base) reads;
- `config.some_name` / `args.some_name` is the flag `--some-name` when argparse declares
  it, or when a `*Args` dataclass has a field of that name (fields become flags).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable

from errdex.extract.conditions import dotted_names
from errdex.extract.knobs import env_read_of
from errdex.facts import Binding, Condition, EnvRead, FileFacts, KnobLink, PropertyFact
from errdex.link.resolve import Namespace

# The receiver of an attribute that a flag may set: `self.model_config`, `args`, `opts`.
_CONFIG_RECEIVER = re.compile(r"(?:config|args|arguments|options|opts|settings|cfg)$", re.I)
# Classes whose own fields a flag of the same name may set: `ModelConfig`, `EngineArgs`.
_CONFIG_CLASS = re.compile(r"(?:Config|Args|Arguments|Options|Settings)$")
_MAX_KNOBS = 12


class KnobIndex:
    """The version's environment reads, flags and properties, for resolving names."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._env_binds: dict[tuple[str, str], EnvRead] = {}  # (module, name) → read
        self._flags: dict[str, tuple[str, str, int]] = {}  # dest → (flag, file, line)
        self._fields: dict[str, tuple[str, str, str, int]] = {}  # name → (class, type, file, line)
        self._properties: dict[tuple[str, str], tuple[PropertyFact, FileFacts]] = {}
        for facts in files:
            if facts.error is not None:
                continue
            for read in facts.env_reads:
                if read.binds is not None:
                    self._env_binds[(facts.module, read.binds)] = read
            for flag in facts.flags:
                dest = flag.flag[2:].replace("-", "_")
                self._flags.setdefault(dest, (flag.flag, facts.path, flag.line))
            for cls in facts.classes:
                for field, annotation in cls.fields.items():
                    self._fields.setdefault(field, (cls.qualname, annotation, facts.path, cls.line))
            for prop in facts.properties:
                self._properties[(facts.module, prop.qualname)] = (prop, facts)

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
        for condition in conditions:
            out.extend(self._direct_reads(condition, facts))
        for dotted in wanted:
            out.extend(self._resolve(dotted, facts, class_name, local, depth=0))
        unique: dict[tuple[str, str], KnobLink] = {}
        for knob in out:
            unique.setdefault((knob.name, knob.behind), knob)
        return list(unique.values())[:_MAX_KNOBS]

    # -- names -----------------------------------------------------------------------------

    def _resolve(
        self,
        dotted: str,
        facts: FileFacts,
        class_name: str | None,
        local: dict[str, Binding],
        depth: int,
    ) -> list[KnobLink]:
        parts = dotted.split(".")
        root = parts[0]
        if root in ("self", "cls") and len(parts) == 2 and class_name and depth < 2:
            found = self._through_property(parts[1], dotted, facts, class_name, depth)
            if found:
                return found
        if root in local and len(parts) == 1:
            return self._through_local(local[root], dotted, facts, class_name, depth)
        env = self._module_env(dotted, facts)
        if env is not None:
            return [env]
        flag = self._flag(parts, dotted, facts, class_name)
        return [flag] if flag is not None else []

    def _module_env(self, dotted: str, facts: FileFacts) -> KnobLink | None:
        root = dotted.split(".")[0]
        if root in ("self", "cls"):
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
            kind="env",
            behind=dotted,
            reads=read.source or None,
            file=where.path,
            line=read.line,
            same_value=True,
            value_type=where.env_types.get(read.binds or read.name),
        )

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
                kind="env",
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
                    KnobLink(
                        name=knob.name,
                        kind=knob.kind,
                        behind=dotted,
                        reads=knob.reads,
                        file=knob.file,
                        line=knob.line,
                        via=f"{via} reads {knob.behind}",
                        same_value=knob.same_value and knob.behind in prop.returns,
                        value_type=knob.value_type,
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
        value = parse_expression(binding.value)
        if value is None:
            return []
        read = env_read_of(value)
        if read is not None:
            return [
                KnobLink(
                    name=read,
                    kind="env",
                    behind=dotted,
                    reads=binding.value[:160],
                    file=facts.path,
                    line=binding.line,
                    via=f"the local `{binding.name}` (line {binding.line})",
                    same_value=True,
                )
            ]
        if isinstance(value, ast.Name | ast.Attribute) and depth < 2:
            inner = ast.unparse(value)
            return [
                KnobLink(
                    name=k.name,
                    kind=k.kind,
                    behind=dotted,
                    reads=k.reads,
                    file=k.file,
                    line=k.line,
                    via=f"the local `{binding.name}` = `{inner}` (line {binding.line})",
                    same_value=k.same_value,
                    value_type=k.value_type,
                )
                for k in self._resolve(inner, facts, class_name, {}, depth + 1)
            ]
        if depth < 2:
            # A local computed from settings: the knobs behind the names it is made of.
            out: list[KnobLink] = []
            for inner in dotted_names(value):
                out.extend(self._resolve(inner, facts, class_name, {}, depth + 1))
            return out
        return []

    def _flag(
        self, parts: list[str], dotted: str, facts: FileFacts, class_name: str | None
    ) -> KnobLink | None:
        if len(parts) < 2 or "_" not in parts[-1]:
            return None
        name = parts[-1]
        receiver = parts[-2]
        in_config_class = (
            receiver in ("self", "cls")
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
        return KnobLink(
            name=declared[0] if declared else flag,
            kind="flag",
            behind=dotted,
            file=file,
            line=line,
            via=via,
            same_value=True,
            value_type=value_type,
        )

    # -- reads written in the condition itself ---------------------------------------------

    def _direct_reads(self, condition: Condition, facts: FileFacts) -> list[KnobLink]:
        text = condition.statement
        if "environ" not in text and "getenv" not in text:
            return []
        tree = parse_expression(text)
        if tree is None:
            return []
        out: list[KnobLink] = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.expr):
                continue
            name = env_read_of(node)
            if name is not None:
                out.append(
                    KnobLink(
                        name=name,
                        kind="env",
                        behind=ast.unparse(node),
                        reads=ast.unparse(node),
                        file=facts.path,
                        line=condition.line,
                        same_value=True,
                    )
                )
        return out


def _names_of(conditions: Iterable[Condition]) -> list[str]:
    found: list[str] = []
    for condition in conditions:
        tree = parse_expression(condition.statement)
        if tree is not None:
            found.extend(dotted_names(tree))
    return list(dict.fromkeys(found))


@functools.lru_cache(maxsize=1 << 16)
def parse_expression(text: str) -> ast.expr | None:
    """The expression a condition or binding holds, parsed once per text (read-only: the
    same tree is handed to every caller), or None when it does not parse."""
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
