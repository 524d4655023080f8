"""The names a version defines, for checking what a model's prose cites against the index.

A model may name any setting, function, class or constant of the indexed version, not only
those of the facts it was given; each is still checked, and this is what it is checked
against: modules, classes and their methods, module-level functions and constants, the
environment variables read and the flags declared. Collected once at index time.
"""

from __future__ import annotations

from collections.abc import Iterable

from errdex.facts import FileFacts

_MAX_NAMES = 400_000


def version_names(files: Iterable[FileFacts]) -> tuple[str, ...]:
    """Every name a version defines, sorted: dotted in full and by their last parts."""
    found: set[str] = set()
    for facts in files:
        if facts.error is not None:
            continue
        found.add(facts.module)
        found.update(facts.defs)
        found.update(facts.constants)
        for cls in facts.classes:
            found.add(cls.qualname)
            found.update(f"{cls.qualname}.{m}" for m in cls.methods)
            found.update(cls.methods)
            found.update(cls.fields)
        found.update(read.name for read in facts.env_reads)
        found.update(flag.flag for flag in facts.flags)
        found.update(prop.qualname for prop in facts.properties)
        if len(found) >= _MAX_NAMES:
            break
    return tuple(sorted(n for n in found if n and "\n" not in n))
