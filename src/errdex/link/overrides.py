"""Defaults that subclasses replace: a method that raises whatever it is given, defined again
by the version's own subclasses of its class.

`raise NotImplementedError` in `ShellComplete.get_completion_args` is no check of anything:
the base class leaves the method to its subclasses, and `BashComplete`, `ZshComplete` and
`FishComplete` define it. When every subclass of the version has the method, none of the
package's own classes reaches the raise: a user's subclass that lacks it does. A default
that raises a message of its own (`SQLCompiler.visit_regexp_replace_op_binary`: "... dialect
does not support regular expression replacements") is what every subclass without it
gives: the subclasses that define it are the ones that support it.
"""

from __future__ import annotations

from collections import defaultdict

from errdex.facts import ErrorSite, FileFacts, SiteKind
from errdex.link.resolve import Namespace, ResolvedClass
from errdex.linked_facts import Overrides

_MAX_SHOWN = 4  # subclasses a site keeps by name
_MAX_WALKED = 4000  # subclasses walked below one class


class OverrideIndex:
    """The version's classes by their bases, built on the first site that asks."""

    def __init__(self, names: Namespace) -> None:
        self._names = names
        self._children: dict[str, list[ResolvedClass]] | None = None
        # the sites of one method share its overrides: each (class, method) is walked once
        self._found: dict[tuple[str, str], Overrides | None] = {}
        self._kin: dict[str, int | None] = {}

    def of(self, site: ErrorSite, facts: FileFacts) -> Overrides | None:
        """The subclasses that define the site's method again, when the site is such a
        default: an unguarded raise directly in a method of a class."""
        if site.kind is not SiteKind.RAISE or site.conditions or site.class_name is None:
            return None
        owner, _, method = site.function.rpartition(".")
        if owner != site.class_name or "<locals>" in owner:
            return None
        base = f"{facts.module}.{owner}"
        if base not in self._names.classes:
            return None
        key = (base, method)
        if key not in self._found:
            self._found[key] = self._overrides(base, method)
        return self._found[key]

    def kin_elsewhere(self, site: ErrorSite, facts: FileFacts) -> int | None:
        """How many classes of the version in files other than the site's derive from the
        class of the site's method, or are bases of it (through the package's own classes
        alone): code there may set what the class's methods read. None when the site is no
        method of a class the version resolves."""
        owner = site.function.rpartition(".")[0]
        if site.class_name is None or owner != site.class_name or "<locals>" in owner:
            return None
        qualname = f"{facts.module}.{owner}"
        if qualname not in self._names.classes:
            return None
        if qualname not in self._kin:
            self._kin[qualname] = self._count_kin(qualname, facts.path)
        return self._kin[qualname]

    def _count_kin(self, qualname: str, path: str) -> int | None:
        children = self._subclasses()
        related: set[str] = set()
        queue = list(children.get(qualname, ()))
        while queue:
            cls = queue.pop()
            if len(related) >= _MAX_WALKED:
                return None
            if cls.qualname in related:
                continue  # a diamond: reached by two of its bases
            related.add(cls.qualname)
            queue.extend(children.get(cls.qualname, ()))
        elsewhere = {q for q in related if self._names.classes[q].file.path != path}
        above = [self._names.classes[qualname]]
        seen = {qualname}
        while above:
            cls = above.pop()
            for written in cls.fact.bases:
                base = self._names.resolve_class(cls.file, written.split("[")[0])
                if base is None or base.qualname in seen:
                    continue
                seen.add(base.qualname)
                if base.file.path != path:
                    elsewhere.add(base.qualname)
                above.append(base)
        return len(elsewhere)

    def _overrides(self, base: str, method: str) -> Overrides | None:
        children = self._subclasses()
        defining: list[str] = []
        every = True
        seen = {base}
        # (class, whether a class between it and the base defines the method)
        queue = [(child, False) for child in children.get(base, ())]
        while queue and len(seen) < _MAX_WALKED:
            cls, inherited = queue.pop(0)
            if cls.qualname in seen:
                continue
            seen.add(cls.qualname)
            defines = method in cls.fact.methods
            if defines:
                defining.append(cls.qualname)
            below = children.get(cls.qualname, ())
            if not below and not (defines or inherited):
                every = False  # a class of the version that reaches the base's raise
            queue.extend((c, defines or inherited) for c in below)
        if not defining:
            return None
        public = [q for q in defining if not q.rpartition(".")[2].startswith("_")]
        shown = (public or defining)[:_MAX_SHOWN]
        return Overrides(
            method=method, base=base, by=tuple(shown), count=len(defining), every=every
        )

    def _subclasses(self) -> dict[str, list[ResolvedClass]]:
        if self._children is None:
            children: dict[str, list[ResolvedClass]] = defaultdict(list)
            for cls in self._names.classes.values():
                for written in cls.fact.bases:
                    resolved = self._names.resolve_class(cls.file, written.split("[")[0])
                    if resolved is not None and resolved.qualname != cls.qualname:
                        children[resolved.qualname].append(cls)
            self._children = dict(children)
        return self._children
