"""Resolve names across a version's modules: imports, re-exports, classes and constants."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import msgspec

from errdex.facts import BUILTIN_EXCEPTIONS as BUILTIN_EXCEPTIONS  # re-exported for the linker
from errdex.facts import Binding, ClassFact, FileFacts

_MAX_HOPS = 6  # re-export chains longer than this are not followed


def python_twins(files: list[FileFacts]) -> list[FileFacts]:
    """The files, each name an import binds to what is no module of the version (a compiled
    module: `sqlalchemy.cyextension.util`, built from `.pyx`) bound instead to its twin
    import that is one (`engine._py_util`, imported in the other branch: `import_twins`),
    so that the calls made through the name reach a function of the version."""
    modules = {f.module for f in files if f.error is None}

    def in_version(target: str) -> bool:
        return target in modules or target.rpartition(".")[0] in modules

    out = []
    for facts in files:
        swapped = {
            name: twin
            for name, twin in facts.import_twins.items()
            if name in facts.imports and not in_version(facts.imports[name]) and in_version(twin)
        }
        if swapped:
            facts = msgspec.structs.replace(facts, imports={**facts.imports, **swapped})
        out.append(facts)
    return out


class ResolvedClass(msgspec.Struct, frozen=True):
    qualname: str  # module.Class
    fact: ClassFact
    file: FileFacts


class Namespace:
    """Every module of one version, indexed for name resolution."""

    def __init__(self, files: list[FileFacts]) -> None:
        self.modules: dict[str, FileFacts] = {f.module: f for f in files if f.error is None}
        self.classes: dict[str, ResolvedClass] = {}
        for facts in self.modules.values():
            for cls in facts.classes:
                qualname = f"{facts.module}.{cls.qualname}"
                self.classes[qualname] = ResolvedClass(qualname, cls, facts)
        # Every package and module name of the version, at any depth: an import whose top
        # name is none of them comes from outside, whatever layout the source has.
        self._own_names = {part for module in self.modules for part in module.split(".")}
        # The namespace never changes once built: each name is resolved once.
        self._looked_up: dict[str, tuple[FileFacts, str] | None] = {}
        self._starred: dict[tuple[str, str], str | None] = {}
        self._splits: dict[str, tuple[str | None, str]] = {}
        # a class and its bases (`class_and_bases`), by (module, class): asked for each call
        # of a method and each name read of an object, and the same for every site of a class
        self._lines: dict[tuple[str, str], tuple[ResolvedClass, ...]] = {}
        self._owners: dict[tuple[str, str, str, bool], tuple[str, str] | None] = {}
        self._bases: dict[tuple[str, int], tuple[str, ...]] = {}

    def qualify(self, facts: FileFacts, dotted: str) -> str:
        """The dotted name as a fully qualified one, following the file's imports."""
        root, _, rest = dotted.partition(".")
        target = facts.imports.get(root)
        if target is None and rest and self._split(dotted)[0] is not None:
            return dotted  # already absolute: `pkg.errors.Error`
        if target is None:
            home = facts.module
            if facts.star_imports and not _defines(facts, root):
                home = self.star_source(facts, root) or home
            local = f"{home}.{root}"
            return f"{local}.{rest}" if rest else local
        return f"{target}.{rest}" if rest else target

    def star_source(self, facts: FileFacts, name: str, depth: int = 0) -> str | None:
        """The module of the version that `name` comes from through the file's `from m
        import *` (the last of them that has it, as Python binds them), or None. A module
        exports what its `__all__` lists when that is a literal; else every name it defines or
        imports that does not start with `_`."""
        key = (facts.module, name)
        if key not in self._starred:
            self._starred[key] = None  # a cycle of star imports ends here
            found = None
            for star in reversed(facts.star_imports):
                module = self.modules.get(star)
                if module is None or not exports(module, name):
                    continue  # outside the version, not a module of it, or kept private
                if _defines(module, name) or name in module.imports:
                    found = star
                elif depth < _MAX_HOPS and module.star_imports:
                    found = self.star_source(module, name, depth + 1)
                if found is not None:
                    break
            self._starred[key] = found
        return self._starred[key]

    def imported_from_outside(self, facts: FileFacts, name: str) -> bool:
        """Whether the file binds `name` by an import from outside the version (`import re`)."""
        target = facts.imports.get(name)
        return target is not None and target.split(".")[0] not in self._own_names

    def lookup(self, qualname: str) -> tuple[FileFacts, str] | None:
        """The module holding `qualname`'s definition and the name inside it, across re-exports."""
        if qualname not in self._looked_up:
            self._looked_up[qualname] = self._lookup(qualname)
        return self._looked_up[qualname]

    def _lookup(self, qualname: str) -> tuple[FileFacts, str] | None:
        for _ in range(_MAX_HOPS):
            module, name = self._split(qualname)
            if module is None:
                return None
            facts = self.modules[module]
            head = name.split(".")[0]
            # a class of the module by that name: `classes` holds every class of each module
            if head in facts.constants or f"{module}.{name}" in self.classes:
                return facts, name
            target = facts.imports.get(head)
            if target is None and facts.star_imports and not _defines(facts, head):
                source = self.star_source(facts, head)
                target = f"{source}.{head}" if source is not None else None
            if target is None:
                return facts, name
            rest = name[len(head) :]
            qualname = target + rest
        return None

    def _split(self, qualname: str) -> tuple[str | None, str]:
        found = self._splits.get(qualname)
        if found is None:
            found = self._splits[qualname] = self._split_once(qualname)
        return found

    def _split_once(self, qualname: str) -> tuple[str | None, str]:
        # the longest module first: each dot from the right (slices, not a split and a
        # join of the parts per try)
        dot = qualname.rfind(".")
        while dot >= 0:
            module = qualname[:dot]
            if module in self.modules:
                return module, qualname[dot + 1 :]
            dot = qualname.rfind(".", 0, dot)
        return None, qualname

    def resolve_class(self, facts: FileFacts, written: str) -> ResolvedClass | None:
        found = self.lookup(self.qualify(facts, written))
        if found is None:
            return None
        module, name = found
        return self.classes.get(f"{module.module}.{name}")

    def resolve_constant(self, facts: FileFacts, dotted: str) -> tuple[Any, FileFacts] | None:
        """The literal value a (dotted) name is bound to, and the file that binds it."""
        if dotted in facts.constants:
            return facts.constants[dotted], facts
        if "." not in dotted and dotted not in facts.imports and not facts.star_imports:
            return None
        root = dotted.partition(".")[0]
        if (
            root not in facts.imports
            and root not in self._own_names
            and not facts.star_imports
            and self.modules.get(facts.module) is facts
        ):
            # an attribute of a local or of an object of the module (`x.shape`), no
            # module's: its lookup ends in this module, whose constants hold no such name
            return None
        found = self.lookup(self.qualify(facts, dotted))
        if found is None:
            return None
        module, name = found
        if name in module.constants:
            return module.constants[name], module
        return None

    def bases(self, cls: ResolvedClass, limit: int = 8) -> tuple[str, ...]:
        """Qualified names of the class's bases, nearest first, through the codebase's
        classes; worked out once per class (each `self.x` a method reads asks again)."""
        key = (cls.qualname, limit)
        found = self._bases.get(key)
        if found is None:
            found = self._bases[key] = self._bases_of(cls, limit)
        return found

    def _bases_of(self, cls: ResolvedClass, limit: int) -> tuple[str, ...]:
        out: list[str] = []
        queue = [(cls.file, base) for base in cls.fact.bases]
        while queue and len(out) < limit:
            facts, written = queue.pop(0)
            base = written.split("[")[0]  # Generic[T] and the like
            resolved = self.resolve_class(facts, base)
            if resolved is not None:
                if resolved.qualname in out:
                    continue
                out.append(resolved.qualname)
                queue.extend((resolved.file, b) for b in resolved.fact.bases)
            elif base in BUILTIN_EXCEPTIONS:
                out.append(f"builtins.{base}")
            else:
                out.append(self.qualify(facts, base) if base in facts.imports else base)
        return tuple(out)

    def method_owner(
        self, facts: FileFacts, class_name: str, method: str, *, bases_only: bool = False
    ) -> tuple[str, str] | None:
        """(module, qualname) of `method` in the class (of `facts`) or the nearest base of
        the version that defines it (only a base's, for `super().method()`); None when none
        of those does."""
        key = (facts.module, class_name, method, bases_only)
        if key in self._owners:
            return self._owners[key]
        found: tuple[str, str] | None = None
        for at, current in enumerate(self._line(facts.module, class_name)):
            if bases_only and at == 0:
                continue
            if method in current.fact.methods:
                found = (current.file.module, f"{current.fact.qualname}.{method}")
                break
        self._owners[key] = found
        return found

    def class_and_bases(self, facts: FileFacts, class_name: str) -> Iterator[ResolvedClass]:
        """The class (of `facts`), then its bases breadth first, as far as the version
        defines them."""
        return iter(self._line(facts.module, class_name))

    def _line(self, module: str, class_name: str) -> tuple[ResolvedClass, ...]:
        key = (module, class_name)
        found = self._lines.get(key)
        if found is None:
            found = self._lines[key] = tuple(self._walk_bases(module, class_name))
        return found

    def _walk_bases(self, module: str, class_name: str) -> Iterator[ResolvedClass]:
        cls = self.classes.get(f"{module}.{class_name}")
        visited: set[str] = set()
        queue = [cls] if cls is not None else []
        while queue:
            current = queue.pop(0)
            if current.qualname in visited or len(visited) > 12:
                continue
            visited.add(current.qualname)
            yield current
            for base in current.fact.bases:
                resolved = self.resolve_class(current.file, base.split("[")[0])
                if resolved is not None:
                    queue.append(resolved)


def exports(module: FileFacts, name: str) -> bool:
    """Whether `from module import *` can bind `name`, as far as the facts tell."""
    listed = module.constants.get("__all__")
    if isinstance(listed, list) and all(isinstance(item, str) for item in listed):
        return name in listed
    # An `__all__` built at run time (`__all__ += ...`) is no constant: assume it lists
    # every public name.
    return not name.startswith("_")


def _defines(facts: FileFacts, name: str) -> bool:
    """Whether the module binds `name` itself: a class, a function or a constant."""
    return (
        name in facts.constants
        or name in facts.defs
        or any(c.qualname == name for c in facts.classes)
    )


def constant_binding(facts: FileFacts, dotted: str, value: Any, where: FileFacts) -> Binding:
    """The binding a page shows for a constant `resolve_constant` found (`value` bound in
    `where`), as `facts` names it (`dotted`)."""
    name = dotted.rsplit(".", 1)[-1] if where is not facts else dotted
    return Binding(
        name=dotted,
        value=json.dumps(value, ensure_ascii=False)[:2000],
        line=0,
        origin="constant",
        file=where.path if where is not facts else None,
        doc=where.constant_docs.get(name),
    )
