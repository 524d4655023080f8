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

from errdex.extract.skeleton import build_skeleton
from errdex.extract.textscan import inside_bounds, triple_quoted_bounds
from errdex.match.import_graph import code_names, exception_like, outline

_DEFINITION = re.compile(r"^(async[ \t]+def|def|class)[ \t]+(\w+)", re.MULTILINE)
_TOP_LEVEL = re.compile(r"^(?=[^\s#)\]}])", re.MULTILINE)  # a statement at column 0


class _Definition(NamedTuple):
    start: int  # where its `def` or `class` keyword is
    end: int  # where the next top-level statement begins
    kind: str  # "def" or "class"
    name: str


def _definitions(text: str, strings: list[int]) -> list[_Definition]:
    """The top-level `def` and `class` statements of the text, outside triple-quoted strings
    (a docstring's line at column 0 ends no definition, a `def` in its example is none)."""
    found: list[_Definition] = []
    for match in _DEFINITION.finditer(text):
        if (found and match.start() < found[-1].end) or inside_bounds(strings, match.start()):
            continue
        kind = "class" if match[1] == "class" else "def"
        found.append(
            _Definition(match.start(), _statement_end(text, match.end(), strings), kind, match[2])
        )
    return found


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


def only_needed(data: bytes, need: Need) -> bytes:
    """The file with the top-level definitions that `need` does not need cut to a stub
    line each, every line kept in place; the file as it is when nothing is cut or the cut
    text would not parse."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # another encoding: the extractor reads it as its coding line says
    strings = triple_quoted_bounds(text)
    definitions = _definitions(text, strings)
    # Constants and other assignments as the outline has them; definitions as read here.
    spans = {**outline(data).spans, **{d.name: (d.start, d.end) for d in definitions}}
    # A class that is no exception is read for its methods, which linking the sites of
    # other files does not need (a model's base class, a config); an exception class is
    # read for its bases and the text it composes.
    bases = outline(data).bases
    plain = {
        d.name
        for d in definitions
        if d.kind == "class" and not exception_like(d.name, bases.get(d.name, ()))
    }
    needed = needed_definitions(text, need.names, spans, plain)
    holding = {d.name for d in _holding(text, definitions, need.lines)}
    pieces: list[str] = []
    done = 0
    for definition in definitions:
        if definition.name in needed or definition.name in holding:
            continue
        start, end, kind, name = definition
        stub = f"class {name}: ..." if kind == "class" else f"def {name}(*a, **k): ..."
        pieces += [text[done:start], stub, "\n" * text.count("\n", start, end)]
        done = end
    if not done:
        return data
    pieces.append(text[done:])
    cut = "".join(pieces)
    return cut.encode() if _parses(cut) else data


def _holding(
    text: str, definitions: list[_Definition], lines: frozenset[int]
) -> Iterator[_Definition]:
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


def _statement_end(text: str, start: int, strings: list[int]) -> int:
    """Where the next top-level statement after `start` begins (a line at column 0 outside
    any triple-quoted string), or the end of the text."""
    for found in _TOP_LEVEL.finditer(text, start):
        if found.start() > start and not inside_bounds(strings, found.start()):
            return found.start()
    return len(text)


def _parses(text: str) -> bool:
    """Whether the extractor will read the text: its skeleton (what extraction parses, the
    bodies without sites blanked) parses, or the text does when it has none."""
    skeleton = build_skeleton(text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes: the extractor reports them
            ast.parse(skeleton.text if skeleton is not None else text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
