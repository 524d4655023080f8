"""Public paths: how a user of the package imports a class or function it defines.

`httpx.AsyncClient` is defined in `httpx._client` and imported into `httpx/__init__.py`:
the user writes `from httpx import AsyncClient`, never the private module. The path is the
shortest one through modules whose names have no private part, following the re-exports
of the version's own modules a few hops deep: the imports of a package's `__init__`
(`from ._client import AsyncClient`), the names a module lists in `__all__`, and star
imports. A module that imports a name for its own use does not re-export it, and a
definition no public module reaches has no public path.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from errdex.extract.module import resolve_relative
from errdex.facts import FileFacts
from errdex.link.resolve import exports

_MAX_HOPS = 4  # re-export chains (`pkg` ← `pkg.sub` ← `pkg.sub._impl`) followed this deep


class PublicPaths:
    """The version's re-exports, to find the public path of what its modules define."""

    def __init__(self, modules: dict[str, FileFacts]) -> None:
        # defining path → the paths that name it in another module
        self._aliases: dict[str, list[str]] = defaultdict(list)
        for module, facts in modules.items():
            # A module imports names for its own use; a package's `__init__` or a module
            # listing the name in `__all__` re-exports it for its users.
            listed = facts.constants.get("__all__")
            package = facts.path.endswith("__init__.py")
            for name, target in facts.imports.items():
                if target == f"{module}.{name}" or name.startswith("_"):
                    continue
                if package or (isinstance(listed, list) and name in listed):
                    self._aliases[target].append(f"{module}.{name}")
            if package and "__getattr__" in facts.defs and isinstance(listed, list):
                for name, target in _lazy_exports(module, facts, listed):
                    self._aliases[target].append(f"{module}.{name}")
            for star in facts.star_imports:
                source = modules.get(star)
                if source is None:
                    continue
                for name in (*source.defs, *(c.qualname for c in source.classes)):
                    if "." not in name and exports(source, name):
                        self._aliases[f"{star}.{name}"].append(f"{module}.{name}")
        self._found: dict[str, str | None] = {}

    def of(self, module: str, qualname: str) -> str | None:
        """The public path of `qualname` (`Class.method`: of `Class`, with the rest after
        it) defined in `module`, or None when no public module reaches it."""
        top, _, rest = qualname.partition(".")
        if top.startswith("_") or "<locals>" in qualname:
            return None
        defined = f"{module}.{top}"
        if defined not in self._found:
            self._found[defined] = self._shortest(defined)
        found = self._found[defined]
        if found is None:
            return None
        return f"{found}.{rest}" if rest else found

    def _shortest(self, defined: str) -> str | None:
        seen = {defined}
        frontier = [defined]
        candidates = [defined] if _public(defined) else []
        for _ in range(_MAX_HOPS):
            aliases = [a for path in frontier for a in self._aliases.get(path, ())]
            frontier = [a for a in aliases if a not in seen]
            seen.update(frontier)
            candidates.extend(a for a in frontier if _public(a))
        if not candidates:
            return None
        return min(candidates, key=lambda path: (path.count("."), len(path), path))


def _lazy_exports(
    package: str, facts: FileFacts, listed: list[object]
) -> Iterator[tuple[str, str]]:
    """The names a package's module `__getattr__` imports when first read (PEP 562): a
    module-level dict of names listed in `__all__` → `"module:attr"` (`"LLM":
    ".entrypoints.llm:LLM"`, a leading dot for the package's own modules), each name with
    the path it stands for (`vllm.entrypoints.llm.LLM`)."""
    for table in facts.constants.values():
        if not isinstance(table, dict):
            continue
        for name, where in table.items():
            if not (isinstance(name, str) and isinstance(where, str) and name in listed):
                continue
            source, colon, attr = where.partition(":")
            if not colon or not attr.isidentifier() or name.startswith("_"):
                continue
            written = source.lstrip(".")
            source = resolve_relative(package, written, len(source) - len(written))
            if all(part.isidentifier() for part in source.split(".")):
                yield name, f"{source}.{attr}"


def _public(path: str) -> bool:
    return not any(part.startswith("_") for part in path.split("."))
