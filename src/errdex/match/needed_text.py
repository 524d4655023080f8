"""What of a file imported for a few names a first answer needs parsed: those names'
definitions and what they use, the rest of its `def`s and `class`es cut to a stub line.

A subset for a first answer holds the files that raised (parsed whole) and, for linking
their sites, the modules they import, each for a few names: an exception class, a helper,
a constant. Those modules are often the package's largest (`utils/hub.py`, a config base),
and parsing all of them took most of a first answer's time. Linking reads of them only the
definitions reached from the names imported (a class's bases and what composes its text, a
helper's raises and the helpers it calls in turn), so every other top-level definition is
replaced by a stub of the same name on its first line and blank lines after: the names
stay defined, every line keeps its number, module-level statements (imports, constants)
stay as written. Read from the text by pattern, as `import_graph` reads imports; a result
that would not parse is not used (the file is extracted whole).
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Collection, Iterator, Mapping
from typing import NamedTuple

from errdex.extract.parsed_ahead import keep
from errdex.extract.skeleton import build_skeleton, package_of
from errdex.extract.textscan import inside_bounds
from errdex.lazy_re import lazy_compile
from errdex.match.import_graph import (
    Definition,
    code_names,
    code_text,
    dedent_at,
    exception_like,
    outline,
)

# Possessive (`++`, `*+`) as in `import_graph`: the same matches, found in a sixth of the time.
_METHOD = lazy_compile(r"^([ \t]++)(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)


def needed_definitions(
    text: str,
    wanted: frozenset[str],
    spans: Mapping[str, tuple[int, int]],
    plain: Collection[str] = (),
) -> frozenset[str]:
    """`wanted` and every top-level name their statements (`spans`) use, in turn (a
    helper's helper, a class's base defined in the same module, a constant's parts); of
    the `plain` classes (not exceptions), none."""
    used = set(wanted)
    todo = [name for name in wanted if name in spans and name not in plain]
    while todo:
        found = code_names(text, *spans[todo.pop()]) - used
        used |= found
        todo.extend(name for name in found if name in spans and name not in plain)
    return frozenset(used.difference(plain))


class Need(NamedTuple):
    """What of a file a subset needs: the top-level definitions holding `lines` (a frame's,
    a raise's) and those `names` need (what other files import of it, what the code at
    those lines uses), with what they use in turn."""

    names: frozenset[str]
    lines: frozenset[int] = frozenset()


def only_needed(data: bytes, need: Need, path: str = "") -> bytes:
    """The file at `path` with the top-level definitions that `need` does not need cut to a
    stub line each, every line kept in place; the file as it is when nothing is cut or the
    cut text would not parse."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # another encoding: the extractor reads it as its coding line says
    # The outline's top-level statements (outside strings spanning lines: a docstring's
    # line at column 0 ends no definition, a `def` in its example is none).
    shape = outline(data)
    strings = shape.strings  # of the same text: the bytes decoded without a replacement
    definitions = shape.definitions
    spans = {**shape.spans, **{d.name: (d.start, d.end) for d in definitions}}
    # A class that is no exception is read for its methods, which linking the sites of
    # other files does not need (a model's base class, a config); an exception class is
    # read for its bases and the text it composes.
    bases = shape.bases
    plain = {
        d.name
        for d in definitions
        if d.kind == "class" and not exception_like(d.name, bases.get(d.name, ()))
    }
    needed = needed_definitions(text, need.names, spans, plain)
    cuts: list[tuple[int, int, str]] = []
    holding = set(_holding(text, definitions, need.lines))  # lines counted once, in order
    for definition in definitions:
        start, end, kind, name = definition
        if definition in holding:
            if name in plain:  # a large class whose method raised: that method, not all
                cuts += _method_cuts(text, definition, need.lines, strings)
        elif name not in needed:
            stub = f"class {name}: ..." if kind == "class" else f"def {name}(*a, **k): ..."
            cuts.append((start, end, stub))
    if not cuts:
        return data
    pieces: list[str] = []
    done = 0
    for start, end, stub in sorted(cuts):
        pieces += [text[done:start], stub, "\n" * text.count("\n", start, end)]
        done = end
    pieces.append(text[done:])
    cut = "".join(pieces)
    return cut.encode() if _parses(cut, package_of(path)) else data


def _method_cuts(
    text: str, owner: Definition, lines: frozenset[int], strings: list[int]
) -> list[tuple[int, int, str]]:
    """Stubs for the methods of a class (no exception) that hold none of `lines` and that
    those holding them do not call on the object, in turn; its special methods and
    properties kept (what a condition's `self.attr` reads), not what they call (a
    session's `__init__` reaches most of its class)."""
    methods = [
        found
        for found in _METHOD.finditer(text, owner.start, owner.end)
        if not inside_bounds(strings, found.start())
    ]
    if not methods:
        return []
    indent = min(len(found[1]) for found in methods)  # the class's own, not nested ones
    spans: dict[str, tuple[int, int]] = {}
    kept: set[str] = set()  # holding a line: what they call is kept too
    read: set[str] = set()  # read for the attributes they set or give: kept alone
    before = owner.start
    first, counted = 1, 0  # line numbers counted on from the method before, not from 0
    for found in (m for m in methods if len(m[1]) == indent):
        end = dedent_at(text, found.end(), owner.end, indent, strings)
        name = found[2]
        first += text.count("\n", counted, found.start())
        counted = found.start()
        last = first + text.count("\n", found.start(), end)
        special = name.startswith("__") and name.endswith("__")
        if any(first <= line < last for line in lines):
            kept.add(name)
        elif special or "property" in text[before : found.start()]:
            read.add(name)
        spans.setdefault(name, (found.start(), end))
        before = end
    needed = _methods_called(text, kept, spans, owner.name) | read
    return [
        (start, end, f"{' ' * indent}def {name}(*a, **k): ...")
        for name, (start, end) in spans.items()
        if name not in needed and text[start:end].startswith(" " * indent)
    ]


def _methods_called(
    text: str, kept: set[str], spans: Mapping[str, tuple[int, int]], owner: str
) -> set[str]:
    """`kept` and the methods they call, in turn: those read off `self`, `cls`, `super()` or
    the class by its name in their code (not in a message: `"flush() all changes"`)."""
    reads = re.compile(rf"(?<![\w.])(?:self|cls|super\(\)|{re.escape(owner)})[ \t]*\.[ \t]*(\w+)")
    used = set(kept)
    todo = list(kept)
    while todo:
        found = set(reads.findall(code_text(text, *spans[todo.pop()], strings=False)))
        todo.extend(name for name in found - used if name in spans)
        used |= found
    return used


def _holding(
    text: str, definitions: tuple[Definition, ...], lines: frozenset[int]
) -> Iterator[Definition]:
    """The definitions whose lines (their statement through the next top-level one) hold
    one of `lines`."""
    if not lines:
        return
    line, counted = 1, 0
    for definition in definitions:
        line += text.count("\n", counted, definition.start)
        last = line + text.count("\n", definition.start, definition.end)
        counted = definition.start
        if any(line <= wanted < last for wanted in lines):
            yield definition


def _parses(text: str, package: str) -> bool:
    """Whether the extractor will read the text: its skeleton (what extraction parses, the
    bodies without sites blanked) parses, or, as extraction falls back to, the text does.
    The tree extraction would make is kept for it (`parsed_ahead`)."""
    skeleton = build_skeleton(text, package=package)  # as extraction builds it
    if skeleton is not None:
        tree = _parsed(skeleton.text)
        if tree is not None:
            keep(text, tree, skeleton)
            return True
        return _parsed(text) is not None  # extraction parses it again its own way
    tree = _parsed(text)
    if tree is not None:
        keep(text, tree, None)
    return tree is not None


def _parsed(text: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes: the extractor reports them
            return ast.parse(text, type_comments=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
