"""The names a version defines, for checking what a model's prose cites against the index.

A model may name any setting, function, class or constant of the indexed version, not only
those of the facts it was given; each is still checked, and this is what it is checked
against: modules, classes and their methods, module-level functions and constants, the
environment variables read and the flags declared: those its parsers declare by name, and
those a generator makes of an arguments class's fields (`add_argument(f"--{key}")` over
`FrontendArgs`' fields, `parsed_classes`), so that a flag a message names can be told
declared or not. Collected once at index time.
"""

from __future__ import annotations

from collections.abc import Iterable

from errdex.facts import FileFacts
from errdex.link.parsed_classes import field_flag, generator_read

_MAX_NAMES = 400_000


def version_names(files: Iterable[FileFacts]) -> tuple[str, ...]:
    """Every name a version defines, sorted: dotted in full and by their last parts."""
    files = list(files)
    found: set[str] = set(generated_flags(files))
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


def generated_flags(files: list[FileFacts]) -> set[str]:
    """The flags a generator makes of the fields of the arguments classes it reads."""
    read = generator_read(files)
    if read is None:
        return set()
    return {
        field_flag(field)
        for facts in files
        if facts.error is None
        for cls in facts.classes
        if cls.name in read
        for field in cls.fields
        if not field.startswith("_")
    }
