"""Which arguments classes a parser's generator reads: whose fields become flags unnamed.

A `*Args` dataclass's field is a command-line flag of its own name only when code turns
the class's fields into flags: a method of the class (or of a base) that declares flags of
computed names (`for key, value in get_kwargs(cls).items(): add_argument(f"--{key}")`).
A class no such method reads (`VisionEncoderArgs` of a model file, a kernel's
`TileSchedulerArguments`) has fields, not flags. When the version shows no such method at
all (its classes may go to another package's parser, `HfArgumentParser(Args)`, which the
extracted facts do not show), nothing is told (`None`).
"""

from __future__ import annotations

from errdex.facts import FileFacts


def field_flag(field: str) -> str:
    """The flag a generator makes of an arguments class's field: `max_len` → `--max-len`."""
    return "--" + field.replace("_", "-")


def generator_read(files: list[FileFacts]) -> frozenset[str] | None:
    """The short names of the arguments classes whose fields a generator makes flags, with
    their subclasses; None when the version shows no generator reading any class."""
    bases: dict[str, set[str]] = {}  # a class with fields → its bases' short names
    read: set[str] = set()
    for facts in files:
        if facts.error is not None:
            continue
        own = {c.qualname: c for c in facts.classes}
        for cls in facts.classes:
            if cls.fields:
                names = bases.setdefault(cls.name, set())
                names.update(b.rsplit(".", 1)[-1].split("[", 1)[0] for b in cls.bases)
        for function in facts.computed_flags:
            owner = own.get(function.rpartition(".")[0])
            if owner is not None and owner.fields:
                read.add(owner.name)
    read &= set(bases)
    if not read:
        return None
    grown = True
    while grown:  # a subclass of a read class is read as well (`cls` is the subclass)
        more = {name for name, of in bases.items() if name not in read and of & read}
        read |= more
        grown = bool(more)
    return frozenset(read)
