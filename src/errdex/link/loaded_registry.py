"""Selection by a registry that loads modules by name: a setting's value picks the module.

vllm's KV connectors are registered at import time with the module each one lives in, as
text: `KVConnectorFactory.register_connector("NixlConnector", "vllm...v1.nixl",
"NixlConnector")`, and `get_connector_class` imports the module of the name it is handed,
`connector_name = kv_transfer_config.kv_connector` (the `kv_connector` key of
`--kv-transfer-config`). No other module of the version imports the NIXL package, so every
check in it (a platform NIXL does not support, a peer whose block size differs) runs only
when that key names one of the connectors the package holds: another name avoids it, and
turns that connector off.

Only what the code states is linked:
- a registration is a module-level call with a string name first and, later, the text of a
  module of the version, in a file that imports modules by name (`import_module`);
- the registry's lookup is a subscript of (or an `in` test on) the dict the registering
  function stores the name into, in a method of the same class, by a local the method
  assigned a setting's value (a key of a JSON-valued flag, a variable), and every such
  lookup reads the same setting;
- the code loaded is the registered module and the modules only it (and what it loads)
  import: a module another one imports, or names as text (a module of its parent package
  too: importing it runs theirs), or that a table of module names holds
  (`{"Model": ("extract_hidden_states", ...)}`), or whose own name a loader above it
  quotes where it builds names on their package, is loaded outside the registry and is
  left out; so is a module that runs as a script of its own (`if __name__ == "__main__":`
  at its top level: a server started with `python -m`), and what only it imports, unless
  its own code starts it (`[sys.executable, __file__, ...]`, a heartbeat the connector runs);
- no code writes a registered name into the setting itself (vllm sets `kv_connector` to
  `OffloadingConnector` for `--kv-offloading-backend native`): the modules such a name loads
  run without the user naming it, and are left out.
"""

from __future__ import annotations

import ast
import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import NamedTuple

from errdex.extract import decode_source
from errdex.facts import FileFacts, KnobKind
from errdex.link.knobs import KnobIndex
from errdex.link.resolve import Namespace
from errdex.linked_facts import KnobLink, SelectionLink

_LOADS = b"import_module("
# how a loader imports a module relative to its own package
_RELATIVE = (b"__package__", b"package=")
# a module run on its own (`python -m ...`): it loads without any registry, unless its own
# code is what starts it (`subprocess.Popen([sys.executable, __file__, ...])`)
_SCRIPT = re.compile(rb"""^if\s+__name__\s*==\s*["']__main__["']\s*:""", re.M)
_MAIN = b"__main__"  # in every text `_SCRIPT` finds
_RUNS_ITSELF = re.compile(rb"sys\.executable\s*,\s*__file__\b")
# a module-level call given a string, then (maybe on later lines) the text of a module
_REGISTERING = re.compile(rb"""^[A-Za-z_][\w.]*\([^)]*?["'][A-Za-z_]\w*\.\w""", re.M)


class _Registry(NamedTuple):
    """A registry of names whose entries load a module of the version by its text."""

    file: str  # the registering file
    module: str
    call: str  # the registering call as written: `KVConnectorFactory.register_connector`
    setting: KnobLink  # the setting whose value the registry is looked up by
    key: str | None  # the key of a JSON-valued flag that holds the name
    entries: tuple[tuple[str, str, int, int], ...]  # (name, module loaded, lines)


class LoadedRegistries:
    """The modules of the version that only a setting's registered names load."""

    def __init__(
        self,
        files: list[FileFacts],
        names: Namespace,
        knobs: KnobIndex,
        texts: Mapping[str, bytes] | None,
    ) -> None:
        self._names = names
        # module → (registry, the names that load it)
        self._loaded: dict[str, list[tuple[_Registry, tuple[str, ...]]]] = {}
        self._loaders: dict[str, tuple[str, bytes]] = {}  # path → (its package, text)
        self._scripts: set[str] = set()
        if not texts:
            return
        # the files that import modules by name
        self._loaders = {
            facts.path: (_package(facts), data)
            for facts in files
            if facts.error is None and _LOADS in (data := texts.get(facts.path, b""))
        }
        registries = [
            registry
            for path, (_, data) in self._loaders.items()
            if _REGISTERING.search(data)
            for registry in _registries(path, data, names, knobs)
        ]
        if not registries:
            return
        importers = _importers(files, names, texts)
        # `_SCRIPT`'s text is looked for first: its search of each line's start is slow
        self._scripts = {
            facts.module
            for facts in files
            if _MAIN in (data := texts.get(facts.path, b""))
            and _SCRIPT.search(data)
            and not _RUNS_ITSELF.search(data)
        }
        written = _written_names(texts, {r.key or _last(r.setting.behind) for r in registries})
        for registry in registries:
            self._add(registry, importers, written | _default_of(registry))

    def _add(
        self,
        registry: _Registry,
        importers: dict[str, set[str]],
        written: set[str],
    ) -> None:
        """The modules only the registry's names load, each with those names."""
        by_module: dict[str, list[str]] = defaultdict(list)
        for name, module, _, _ in registry.entries:
            by_module[module].append(name)
        roots = set(by_module)
        # the registry's own file names them as text: that is the registry itself
        held = {
            m
            for m in roots
            if importers.get(m, set()) <= {registry.module} and m not in self._scripts
        }
        held = _closure(held, importers, self._names, self._scripts)
        held -= self._quoted_elsewhere(held, registry)
        # which registered modules reach each held one, through imports among them
        reached: dict[str, set[str]] = defaultdict(set)
        imports = _imports_within(held, importers)
        for root in roots & held:
            todo, seen = [root], {root}
            while todo:
                here = todo.pop()
                reached[here].add(root)
                for nxt in imports.get(here, ()):
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
        for module, loaders in reached.items():
            picked = tuple(n for root in sorted(loaders) for n in by_module[root])
            if not picked or any(n in written for n in picked):
                continue  # the code names one itself: it runs without the user's choice
            self._loaded.setdefault(module, []).append((registry, picked))

    def _quoted_elsewhere(self, held: set[str], registry: _Registry) -> set[str]:
        """The held modules whose own name a file of a package above them that imports
        modules by name quotes (`"extract_hidden_states"`, `".nixl"`), where it builds
        names on their package (its text, or `import_module(f".{name}", __package__)`): it
        may load them by that name, which the import facts do not show."""
        out = set()
        held_paths = {self._names.modules[m].path for m in held if m in self._names.modules}
        for path, (package, data) in self._loaders.items():
            if path == registry.file or path in held_paths:
                continue
            for module in held:
                parent = module.rpartition(".")[0]
                if not module.startswith(f"{package}."):
                    continue
                # a name built on the module's package: its text, or the file's own package
                if parent.encode() + b"." not in data and not any(r in data for r in _RELATIVE):
                    continue
                leaf = module.rpartition(".")[2].encode()
                if any(q + leaf + e in data for q in (b'"', b"'", b".") for e in (b'"', b"'")):
                    out.add(module)
        return out

    def selections(self, facts: FileFacts) -> list[SelectionLink]:
        """The setting whose registered names alone load the module of `facts`."""
        out = []
        for registry, picked in self._loaded.get(facts.module, ()):
            lines = [(line, end) for name, _, line, end in registry.entries if name in picked]
            registered = tuple(dict.fromkeys(name for name, _, _, _ in registry.entries))
            first, last = min(a for a, _ in lines), max(b for _, b in lines)
            out.append(
                SelectionLink(
                    setting=registry.setting.name,
                    kind=registry.setting.kind,
                    how="load",
                    value=picked[0],
                    aliases=picked[1:],
                    registry=registry.call,
                    file=registry.file,
                    line=first,
                    listed=f"{registry.file}:{first}-{last}" if last > first else None,
                    given=True,
                    registered=registered,
                    key=registry.key,
                )
            )
        return out


def _default_of(registry: _Registry) -> set[str]:
    """The registered name the setting holds when left out, if its declaration writes one."""
    knob = registry.setting
    default = dict(knob.key_defaults).get(registry.key) if registry.key else knob.default
    return {default.strip("'\"")} if default else set()


def _last(dotted: str) -> str:
    return dotted.rpartition(".")[2]


def _registries(path: str, data: bytes, names: Namespace, knobs: KnobIndex) -> list[_Registry]:
    """The registries a file that imports modules by name fills at module level."""
    facts = next((f for f in names.modules.values() if f.path == path), None)
    if facts is None:
        return []
    try:
        tree = ast.parse(decode_source(data))
    except (SyntaxError, ValueError, RecursionError):
        return []
    calls: dict[str, list[tuple[str, str, int, int]]] = defaultdict(list)
    for statement in tree.body:
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            continue
        call = statement.value
        texts = [a.value for a in call.args if isinstance(a, ast.Constant)]
        if len(texts) < 2 or not all(isinstance(t, str) for t in texts):
            continue
        first = call.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        loaded = next((t for t in texts[1:] if t in names.modules), None)
        if loaded is None or first.value in names.modules:
            continue
        end = statement.end_lineno or statement.lineno
        calls[ast.unparse(call.func)].append((first.value, loaded, statement.lineno, end))
    out = []
    functions = {
        f"{owner}{node.name}": node for owner, node in _functions(tree) if isinstance(node, _DEF)
    }
    # each module's text, as often as the file writes it: one written elsewhere in the
    # file too (another registry's entry) is loaded by more than these names
    written_texts = Counter(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
    for written, entries in calls.items():
        store = _stored_into(functions, written)
        if store is None:
            continue
        setting = _lookup_setting(tree, store, written.rpartition(".")[0], facts, knobs)
        if setting is None:
            continue
        knob, key = setting
        per_module = Counter(module for _, module, _, _ in entries)
        kept = tuple(e for e in entries if written_texts[e[1]] == per_module[e[1]])
        if kept:
            out.append(_Registry(path, facts.module, written, knob, key, kept))
    return out


_DEF = (ast.FunctionDef, ast.AsyncFunctionDef)


def _functions(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """Each function of the module and of its top classes, with its class (`Class.`)."""
    out: list[tuple[str, ast.AST]] = []
    for node in tree.body:
        if isinstance(node, _DEF):
            out.append(("", node))
        elif isinstance(node, ast.ClassDef):
            out.extend((f"{node.name}.", item) for item in node.body if isinstance(item, _DEF))
    return out


def _stored_into(functions: Mapping[str, ast.AST], called: str) -> str | None:
    """The attribute (or name) of the dict the registering function stores its first
    parameter's name into: `cls._registry[name] = loader` → `_registry`."""
    function = functions.get(called)
    if not isinstance(function, _DEF):
        return None
    params = [a.arg for a in function.args.args if a.arg not in ("self", "cls")]
    if not params:
        return None
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.slice, ast.Name)
                and target.slice.id == params[0]
            ):
                return _tail(target.value)
    return None


def _tail(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _lookup_setting(
    tree: ast.Module, store: str, owner_class: str, facts: FileFacts, knobs: KnobIndex
) -> tuple[KnobLink, str | None] | None:
    """The one setting every lookup of the dict `store` by a local reads, in the functions
    of the registering class (`owner_class`, or the module's own): the local is assigned a
    name the setting decides as it is (or a key of its JSON object)."""
    found: dict[tuple[str, str | None], KnobLink] = {}
    for owner, function in _functions(tree):
        assert isinstance(function, _DEF)
        if owner.rstrip(".") != owner_class:
            continue
        assigned: dict[str, str] = {}
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Attribute)
            ):
                assigned[node.targets[0].id] = ast.unparse(node.value)
        for local in _lookups(function, store):
            dotted = assigned.get(local)
            if dotted is None:
                continue
            setting = _setting(dotted, facts, owner.rstrip(".") or None, knobs)
            if setting is None:
                return None  # a lookup by something no setting decides
            found[(setting[0].name, setting[1])] = setting[0]
    if len(found) != 1:
        return None
    (_, key), knob = next(iter(found.items()))
    return knob, key


def _lookups(function: ast.AST, store: str) -> list[str]:
    """The locals `function` looks the dict `store` up by: `cls._registry[name]`,
    `name in cls._registry`."""
    out = []
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and _tail(node.value) == store
            and isinstance(node.slice, ast.Name)
        ):
            out.append(node.slice.id)
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Name)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.In)
            and _tail(node.comparators[0]) == store
        ):
            out.append(node.left.id)
    return out


def _setting(
    dotted: str, facts: FileFacts, class_name: str | None, knobs: KnobIndex
) -> tuple[KnobLink, str | None] | None:
    """The setting whose value `dotted` is: a variable, or a key of a JSON-valued flag's
    object (`kv_transfer_config.kv_connector` → `kv_connector`)."""
    for knob in knobs.resolve(dotted, facts, class_name):
        if knob.kind not in (KnobKind.FLAG, KnobKind.ENV) or not knob.same_value:
            continue
        if knob.behind == dotted:
            # a variable; a flag is taken only as the JSON object whose key holds the name:
            # a bare attribute's flag of the same name may be another program's
            if knob.kind == KnobKind.ENV:
                return knob, None
            continue
        rest = dotted[len(knob.behind) + 1 :] if dotted.startswith(f"{knob.behind}.") else ""
        if rest and "." not in rest:
            return knob, rest
    return None


def _importers(
    files: list[FileFacts], names: Namespace, texts: Mapping[str, bytes]
) -> dict[str, set[str]]:
    """Each module of the version → the modules that import it (or a module inside it: a
    package runs first), or name it as text (`"vllm.x.y"`, `"vllm.x.y:Class"`)."""
    modules = names.modules
    found: dict[str, set[str]] = defaultdict(set)

    chains: dict[str, tuple[str, ...]] = {}

    def add(target: str, by: str) -> None:
        chain = chains.get(target)
        if chain is None:
            chain = chains[target] = _loaded_by_import(target, modules)
        for module in chain:
            # a package's own modules run only once it runs: they do not load it
            if module != by and not by.startswith(f"{module}."):
                found[module].add(by)

    tops = sorted({m.split(".")[0].encode() for m in modules})
    named = re.compile(
        rb"[\"']((?:" + b"|".join(re.escape(t) for t in tops) + rb")(?:\.\w+)+)(?::\w+)?[\"']"
    )
    quoted = [q + t + b"." for t in tops for q in (b'"', b"'")]
    for facts in files:
        if facts.error is not None:
            continue
        by = facts.module
        for target in (
            *facts.imports.values(),
            *facts.local_imports.values(),
            *facts.optional_imports.values(),
            *facts.star_imports,
        ):
            add(target, by)
        # a dict of names → (module, class) a loader imports, the module beside the dict
        # (`{"ExtractHiddenStatesModel": ("extract_hidden_states", ...)}`)
        package = _package(facts)
        for table in facts.name_tables.values():
            for module, _ in table.values():
                add(module if module in modules else f"{package}.{module}", by)
        data = texts.get(facts.path)
        if data is None or not any(q in data for q in quoted):
            continue
        for match in named.finditer(data):
            add(match.group(1).decode(), by)
    return found


def _package(facts: FileFacts) -> str:
    """The package a module's relative names are read in."""
    return facts.module if facts.path.endswith("__init__.py") else facts.module.rpartition(".")[0]


def _loaded_by_import(target: str, modules: Mapping[str, FileFacts]) -> tuple[str, ...]:
    """The modules importing `target` runs: its module and the packages above it."""
    module = target if target in modules else target.rpartition(".")[0]
    out = []
    while module:
        if module in modules:
            out.append(module)
        module = module.rpartition(".")[0]
    return tuple(out)


def _closure(
    held: set[str], importers: dict[str, set[str]], names: Namespace, scripts: set[str]
) -> set[str]:
    """`held` and every module of the version (not a script) whose importers are all held,
    until none is added."""
    held = set(held)
    changed = True
    while changed:
        changed = False
        for module, by in importers.items():
            if module in held or module in scripts or module not in names.modules or not by:
                continue
            if by <= held:
                held.add(module)
                changed = True
    return held


def _imports_within(held: set[str], importers: dict[str, set[str]]) -> dict[str, set[str]]:
    """Among `held`: each module → the held modules it imports."""
    out: dict[str, set[str]] = defaultdict(set)
    for module in held:
        for by in importers.get(module, ()):
            if by in held:
                out[by].add(module)
    return out


def _written_names(texts: Mapping[str, bytes], keys: set[str]) -> set[str]:
    """The names the code itself writes into a registry's setting: a text assigned to the
    key (`config.kv_connector = "X"`, `kv_connector="X"`, `kv_connector: str = "X"`,
    `{"kv_connector": "X"}`), or to a local the file then assigns to it. Read from the
    text (docstrings too: more names left out, never one too few)."""
    out: set[str] = set()
    for key in keys:
        word = key.encode()
        value = rb"\s*(?:[\"'](\w+)[\"']|([A-Za-z_]\w*)\b(?!\s*[.(\[]))"
        # each starts with the key itself, which the search looks for first
        patterns = (
            re.compile(re.escape(word) + rb"(?:\s*:[^=\n]{0,80})?\s*=(?!=)" + value),
            re.compile(re.escape(word) + rb"[\"']\s*:" + value),
        )
        for data in texts.values():
            if word not in data:
                continue
            for match in (m for p in patterns for m in p.finditer(data)):
                before = data[match.start() - 1 : match.start()]
                if before.isalnum() or before == b"_":
                    continue  # inside a longer name
                text, local = match.group(1), match.group(2)
                if text:
                    out.add(text.decode())
                elif local and local not in (b"None", b"True", b"False"):
                    given = re.compile(rb"\b" + re.escape(local) + rb"\s*=(?!=)\s*[\"'](\w+)[\"']")
                    out.update(m.group(1).decode() for m in given.finditer(data))
    return out
