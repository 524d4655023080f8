"""Which files of a package a few files import, read from their import statements by pattern
(no parsing, no importing): what linking a few files' sites needs beside them.

A package's `__init__` often imports every module of the package to re-export a few names
from each, and a module imports what all its functions use; following all of it would pull
in most of the package. So a module reached for some names (`from .utils import a, b`) is
followed only through the statements that bind those names or the names their definitions
use.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from itertools import accumulate, repeat
from operator import add
from typing import NamedTuple

from errdex.extract.module import module_name
from errdex.extract.textscan import inside_bounds, line_matches, shallow_line, string_bounds
from errdex.lazy_re import lazy_compile

_IMPORT = lazy_compile(
    r"^[ \t]*(?:from[ \t]+(?P<from>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^#\n]*)"
    r"|import[ \t]+(?P<modules>[\w., \t]+))",
    re.MULTILINE,
)
# Patterns of a line's start are written after its newline (and a text searched with a
# newline before it): the engine then skips from newline to newline, where a pattern
# anchored at `^` is tried at every character (3 to 5 times slower on a large module).
_DEFINITION = lazy_compile(r"\n(?:(?:(?:async[ \t]+)?def|class)[ \t]+(\w+)|(\w+)[ \t]*[:=])")
_TOP_LEVEL = lazy_compile(r"\n(?=[^\s#)\]}])")  # before a statement at column 0
_CODE_START = lazy_compile(r"[^\s#)\]}]")
_NAME = lazy_compile(r"[A-Za-z_]\w*")
_WORD = lazy_compile(r"\w+")
_NAME_PATH = lazy_compile(r"[A-Za-z_][\w.]*")
# After a newline (searched by `line_matches`): a pattern anchored at a line's start with
# `^` is tried at every character, one that starts with "\n" at each line.
_CLASS_HEADER = lazy_compile(r"\n[ \t]*class[ \t]+(\w+)[ \t]*\(([^)]*)\)")
_COMMENT = lazy_compile(r"#[^\n]*")
_EXCEPTIONISH = lazy_compile(r"Error|Exception|Warning|Exit|Abort|Fail|Interrupt")
_MAX_HOPS = 6  # re-export chains through `__init__` files longer than this are not followed


class Import(NamedTuple):
    """One module a statement imports, as a file of the package."""

    file: str
    # The names taken from it, or read off it (`mod.name`); None: the module as a whole.
    # For a module bound whole, see `read_off`.
    names: frozenset[str] | None
    binds: frozenset[str] | None  # the names the statement binds where it is; None: `*`
    aliases: tuple[tuple[str, str], ...] = ()  # (name taken, name bound) where they differ
    # A module bound whole by this name: the names are what the file reads off it, found
    # only for a statement that is followed (`taken`).
    read_off: str | None = None

    def taken(self, data: bytes) -> frozenset[str] | None:
        """The names taken from the module, `data` being the importing file's bytes."""
        if self.read_off is None:
            return self.names
        return _attributes(decoded(data), self.read_off)


class ModuleFiles(dict[str, str]):
    """Dotted module name → file, for every file of a package; hashed by identity, so that
    what is read of one package's files can be kept for it."""

    __hash__ = object.__hash__  # type: ignore[assignment]


def module_files(paths: Iterable[str]) -> ModuleFiles:
    """Dotted module name → file, for every file of the package (named as extraction names
    them: a `src/` layout's folder is no part of the name)."""
    return ModuleFiles((module_name(path)[0], path) for path in paths)


def _is_init(path: str) -> bool:
    return module_name(path)[1]


def _package_of(path: str) -> str:
    """The dotted package a relative import in this file starts from."""
    module, is_package = module_name(path)
    return module if is_package else module.rpartition(".")[0]


def _aliased(written: str) -> tuple[str, str]:
    """`name as alias` → (name, alias); `name` → (name, name)."""
    parts = written.split()
    if len(parts) == 3 and parts[1] == "as":
        return parts[0], parts[2]
    return (parts[0], parts[0]) if parts else ("", "")


def imports_of(path: str, data: bytes, modules: Mapping[str, str]) -> Iterator[Import]:
    """The package's files that one file imports (absolute, relative, `from pkg import
    submodule`), with the names taken from each and bound by each statement."""
    package = _package_of(path)
    text = decoded(data)
    bases: dict[str, str] = {}  # a relative module as written → its name (`..util`)
    for match in _import_statements(text):
        if match["modules"]:
            for written in match["modules"].split(","):
                name, alias = _aliased(written.strip())
                if name in modules:
                    aliased = alias != name or "." not in name
                    bound = alias if aliased else name.split(".")[0]
                    read_off = alias if aliased else None
                    yield Import(modules[name], None, frozenset({bound}), read_off=read_off)
            continue
        written = match["from"]
        base = bases.get(written)
        if base is None:
            base = bases[written] = _absolute(written, package)
        names = match["names"]
        if "#" in names:
            names = _COMMENT.sub("", names)
        names = names.strip("() \\\n")
        listed = [_aliased(n.strip()) for n in names.split(",")]
        listed = [(name, alias) for name, alias in listed if name]
        if any(name == "*" for name, _ in listed):
            if base in modules:
                yield Import(modules[base], None, None)
            continue
        if base in modules:
            taken = frozenset(name for name, _ in listed)
            renamed = tuple((name, alias) for name, alias in listed if alias != name)
            yield Import(modules[base], taken, frozenset(alias for _, alias in listed), renamed)
        for name, alias in listed:
            submodule = f"{base}.{name}" if base else name
            if submodule in modules:
                yield Import(modules[submodule], None, frozenset({alias}), read_off=alias)


def _absolute(written: str, package: str) -> str:
    """The module a `from` statement of `package` names (`..util` → `pkg.util`)."""
    dots = len(written) - len(written.lstrip("."))
    if not dots:
        return written
    parts = package.split(".") if package else []
    parts = parts[: len(parts) - (dots - 1)] if dots > 1 else parts
    rest = written.lstrip(".")
    return ".".join([*parts, rest] if rest else parts)


def _import_statements(text: str) -> Iterator[re.Match[str]]:
    """`_IMPORT.finditer(text)`, tried only at the lines holding `import` (where each such
    statement starts): a pattern tried at every line of a 300 kB module took most of the
    time of following a traceback's imports."""
    end = 0
    at = text.find("import")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        found = _IMPORT.match(text, start) if start >= end else None
        if found is not None:
            yield found
            end = found.end()
        at = text.find("import", max(at + 1, end))
    return


@functools.lru_cache(maxsize=256)
def _imports_once(path: str, data: bytes, modules: ModuleFiles) -> tuple[Import, ...]:
    """`imports_of`, read once per file of a package however often re-exports through its
    `__init__` files lead to it."""
    return tuple(imports_of(path, data, modules))


@functools.lru_cache(maxsize=256)
def decoded(data: bytes) -> str:
    """The file's text as its imports and outline are read, decoded once: the same str
    each time, so that what is kept by text (`_read_off`) hashes it once."""
    return data.decode("utf-8", "replace")


def _attributes(text: str, alias: str) -> frozenset[str] | None:
    """The names a file reads off a module it imports whole (`util.warn` of `from .. import
    util`), or None when it never reads one that way (it passes the module on, or uses it
    some other way)."""
    return _read_off(text, alias) or None


@functools.lru_cache(maxsize=256)
def _read_off(text: str, alias: str) -> frozenset[str]:
    """Every `alias.attribute` the text reads (not `x.alias.attribute`). One search for the
    alias a call: a file is asked for the few modules it imports whole, and reading every
    `name.attribute` of a large module took a few times longer. Found by `str.find`, not a
    pattern made for the alias: compiling one per alias took as long as the searches."""
    found = set()
    read = f"{alias}."
    at = text.find(read)
    while at >= 0:
        before = text[at - 1] if at else " "
        attribute = _WORD.match(text, at + len(read))
        if attribute is not None and not (before.isalnum() or before in "_."):
            found.add(attribute[0])
        at = text.find(read, at + 1)
    return frozenset(found)


def _followed(
    read: Mapping[str, bytes],
    path: str,
    wanted: frozenset[str] | None,
    modules: Mapping[str, str],
    hops: int = 0,
    *,
    uses: bool = True,
    reads: Mapping[str, frozenset[str] | None] | None = None,
) -> Iterator[tuple[str, frozenset[str] | None]]:
    """(file, names wanted of it) for each import of `path` that matters: all of them, or
    for a module reached for some names, those binding the names or (with `uses`) what
    their definitions use; and through the `__init__` files they lead to, the modules that
    define them. `reads`: for an `__init__` followed for some names, what the file that
    imported them reads off each (`schema.Table` of `from sqlalchemy.sql import schema`)."""
    data = read.get(path)
    if data is None:
        return
    relevant = wanted if wanted is None or not uses else _used_by(data, wanted)
    known = modules if isinstance(modules, ModuleFiles) else ModuleFiles(modules)
    for found in _imports_once(path, data, known):
        if relevant is not None and not _may_bind(read, found, relevant):
            continue
        names = found.taken(data)
        if relevant is not None and names is not None and names == found.binds:
            # A statement importing many names (an `__init__` re-exporting a module's API)
            # is needed for those wanted here, not for all it lists.
            names = names & relevant
        elif relevant is not None and names is None and found.binds is None:
            # `from .module import *`, for the names wanted that the module's text holds.
            target = read.get(found.file) or b""
            names = frozenset(name for name in relevant if name.encode() in target)
        elif names is None and reads is not None and found.binds and found.binds <= reads.keys():
            # A submodule the `__init__` binds by name: what the importer reads off it.
            taken: frozenset[str] | None = frozenset()
            for bound in found.binds:
                taken = union_of(taken, reads[bound])
            names = taken
        yield found.file, names
        if _is_init(found.file) and names is not None and hops < _MAX_HOPS:
            passed = reads
            if passed is None:
                # What this file reads off each name, by the name it binds it to
                # (`from ...sql import selectable as sa_selectable`: `sa_selectable.X`).
                text = decoded(data)
                alias = dict(found.aliases)
                passed = {name: _attributes(text, alias.get(name, name)) for name in names}
            yield from _followed(read, found.file, names, modules, hops + 1, reads=passed)


class Definition(NamedTuple):
    """A top-level `def` or `class` statement of a module's text."""

    start: int  # where its `def` or `class` keyword is
    end: int  # where the next top-level statement begins
    kind: str  # "def" or "class"
    name: str


class _Outline(NamedTuple):
    """Where a module's top-level definitions are, and the bases of its classes."""

    text: str
    spans: dict[str, tuple[int, int]]  # name → where its definition's body is in `text`
    bases: dict[str, frozenset[str]]  # class name → the names its class statement gives
    # (first line, last line, name) of each top-level definition, statement lines included
    lines: tuple[tuple[int, int, str], ...]
    line_starts: tuple[int, ...]  # where each line begins in `text` (line 1 at index 0)
    classes: frozenset[str]  # the names of its top-level classes
    strings: list[int]  # `textscan.string_bounds(text)`, for the file's cutter too
    definitions: tuple[Definition, ...]  # its `def`s and `class`es, in order, for the cutter


@functools.lru_cache(maxsize=256)
def outline(data: bytes) -> _Outline:
    """The module's outline, made once per file (the same bytes are asked for many names,
    and again when the subset's files are cut: a subset holds up to a few hundred)."""
    text = decoded(data)
    spans: dict[str, tuple[int, int]] = {}
    lines: list[tuple[int, int, str]] = []
    definitions: list[Definition] = []
    classes: set[str] = set()
    line, counted = 1, 0
    # A docstring's line at column 0 (`Returns:`, text) is no statement of the module.
    strings = string_bounds(text)
    for start, found_end, found in line_matches(_DEFINITION, text):
        if inside_bounds(strings, start):
            continue
        stop = next(
            (at for at in top_level_starts(text, found_end) if not inside_bounds(strings, at)),
            len(text),
        )
        spans.setdefault(found[1] or found[2], (found_end, stop))
        line += text.count("\n", counted, start)
        last = line + text.count("\n", start, max(start, stop - 1))
        lines.append((line, last, found[1] or found[2]))
        if text.startswith("class", start):
            classes.add(found[1])
        if found[1]:
            kind = "class" if text.startswith("class", start) else "def"
            definitions.append(Definition(start, stop, kind, found[1]))
        counted = start
    bases: dict[str, frozenset[str]] = {}
    for _, _, header in line_matches(_CLASS_HEADER, text):
        named = {part.split(".")[0] for part in _NAME_PATH.findall(header[2])}
        bases.setdefault(header[1], frozenset(named - {"metaclass", "object"}))
    # Where each line begins, added up from the lengths of the lines before it.
    starts = tuple(accumulate(map(add, map(len, text.split("\n")[:-1]), repeat(1)), initial=0))
    return _Outline(
        text, spans, bases, tuple(lines), starts, frozenset(classes), strings, tuple(definitions)
    )


def top_level_starts(text: str, pos: int = 0) -> Iterator[int]:
    """Where the lines from `pos` on that hold a statement at column 0 begin (what
    `^(?=[^\\s#)\\]}])` finds under re.MULTILINE)."""
    if pos == 0:
        if _CODE_START.match(text):
            yield 0
        pos = 1
    for found in _TOP_LEVEL.finditer(text, pos - 1):
        yield found.start() + 1


def definitions_at(data: bytes, lines: Iterable[int]) -> frozenset[str] | None:
    """The names that matter at these lines (a raise's, a frame's): the top-level definition
    holding each, or, in a class, the names its method holding the line uses (a class's
    other methods use what they will; a method of a large class is what raised); None when
    one is in no definition (code at module level may use anything the module imports)."""
    shape = outline(data)
    held: set[str] = set()
    # A class's methods found once however many of the lines it holds (a compiler class of
    # 6,000 lines holds dozens of raises of one class).
    methods: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for line in lines:
        holding = [
            (first, last, name) for first, last, name in shape.lines if first <= line <= last
        ]
        if not holding:
            return None
        for first, last, name in holding:
            if name not in shape.classes:
                held.add(name)
                continue
            if (first, last) not in methods:
                methods[first, last] = _methods(shape, first, last)
            starts = shape.line_starts
            at = starts[line - 1] if line <= len(starts) else starts[min(last, len(starts) - 1)]
            method = next(((s, e) for s, e in methods[first, last] if s <= at < e), None)
            if method is None:
                held.add(name)
            else:
                held.update(code_names(shape.text, *method))
    return frozenset(held)


_METHOD = lazy_compile(r"^([ \t]++)(?:async[ \t]+)?def[ \t]+\w+", re.MULTILINE)


def _methods(shape: _Outline, first: int, last: int) -> list[tuple[int, int]]:
    """Where in `shape.text` the methods of the class on lines `first`..`last` are (each its
    header through its body), in order."""
    starts = shape.line_starts
    start, end = starts[first - 1], starts[min(last, len(starts) - 1)]
    methods = list(_METHOD.finditer(shape.text, start, end))
    if not methods:
        return []
    indent = min(len(m[1]) for m in methods)  # the class body's own methods, not nested ones
    own = [m for m in methods if len(m[1]) == indent]
    strings = _bounds_within(shape, start, end)
    spans = []
    for method, after in zip(own, [*own[1:], None], strict=False):
        stop = dedent_at(shape.text, method.end(), end, indent, strings, start)
        if after is not None:
            stop = min(stop, after.start())
        spans.append((method.start(), stop))
    return spans


def _bounds_within(shape: _Outline, start: int, end: int) -> list[int]:
    """`string_bounds(shape.text[start:end])` for a class's lines: the module's own, taken
    from `start` (a statement at column 0 starts and ends no string) rather than scanned
    again; scanned when a string would cross the lines' end."""
    taken = shape.strings[
        bisect.bisect_left(shape.strings, start) : bisect.bisect_left(shape.strings, end)
    ]
    if len(taken) % 2:
        return string_bounds(shape.text[start:end])
    return [at - start for at in taken]


def dedent_at(
    text: str, start: int, end: int, indent: int, strings: list[int], origin: int = 0
) -> int:
    """Where the first line after `start` indented `indent` or less begins (`shallow_line`:
    not blank, not a comment, not a closing bracket; not in a string spanning lines, whose
    `strings` bounds count from `origin`), or `end`: the end of a block whose header is
    indented `indent`. The engine passes over the deeper lines, not a loop over each line."""
    pattern = shallow_line(indent)
    for found in pattern.finditer(text, start, end):
        line = found.start() + 1
        if not inside_bounds(strings, line - origin):
            return line
    return end


# Text that names nothing the code uses: comments, and triple-quoted strings that are not
# f-strings (docstrings, which list whole APIs: `pipeline()`'s names every pipeline class).
# One-line strings are matched only so that a `#` inside one starts no comment. The lookahead
# lets the engine skip to the characters that can start one of them, and a one-line string
# is read possessively (its parts parse one way only): a third of the time, the same matches.
_PROSE = lazy_compile(
    r"""(?=[rRbBuU"'#])(?:(?P<doc>(?<![fF\w])[rRbBuU]{0,2}(?:\"\"\"[\s\S]*?\"\"\"|'\'\'[\s\S]*?'\'\'))"""
    r"""|(?P<line>"(?:[^"\\\n]++|\\.)*+"|'(?:[^'\\\n]++|\\.)*+')|(?P<comment>#[^\n]*+))"""
)


def code_names(text: str, start: int, end: int) -> set[str]:
    """The names the code between `start` and `end` uses, leaving out its prose."""
    return set(_NAME.findall(code_text(text, start, end)))


def code_text(text: str, start: int, end: int, strings: bool = True) -> str:
    """The code between `start` and `end` with its prose blanked; without `strings`, its
    one-line strings too, but for f-strings (whose fields are code)."""
    chunk = text[start:end]

    def kept(found: re.Match[str]) -> str:
        line = found["line"]
        if line and (strings or "f" in chunk[max(0, found.start() - 2) : found.start()].lower()):
            return line
        return " "

    return _PROSE.sub(kept, chunk)


def _used_by(data: bytes, wanted: frozenset[str]) -> frozenset[str]:
    """The names wanted and every name their top-level definitions in this module use (a
    class's bases, a function's helpers, a constant's parts), and what the module's own
    classes among those use in turn (an exception class raised where it is defined: its
    bases, what composes its text): what importing them needs. A class that is no exception
    is not read (a model, a session): the first answer's text of the module has it cut to
    a stub (`needed_text`), all but the method holding a frame's line, whose names are
    wanted already."""
    shape = outline(data)
    plain = {c for c in shape.classes if not exception_like(c, shape.bases.get(c, ()))}
    used = set(wanted)
    todo = [name for name in wanted if name in shape.spans and name not in plain]
    while todo:
        found = code_names(shape.text, *shape.spans[todo.pop()])
        todo.extend(
            n for n in found - used if n in shape.classes and n in shape.spans and n not in plain
        )
        used |= found
    return frozenset(used)


def _may_bind(read: Mapping[str, bytes], found: Import, wanted: frozenset[str]) -> bool:
    """Whether the statement may bind one of the names wanted: it names one, or it is a `*`
    import of a module whose text holds one."""
    if found.binds is not None:
        return bool(found.binds & wanted)
    data = read.get(found.file)
    return data is not None and any(name.encode() in data for name in wanted)


def _bases(data: bytes, names: frozenset[str]) -> frozenset[str]:
    """The names the class statements of `names` in this module give as bases, for the
    classes that may be exceptions (by their names or their bases' names): what a paste's
    class is matched against. Other classes' bases (a model's mixins) hold methods, which
    linking the sites of the files chosen does not read."""
    bases = outline(data).bases
    return frozenset(
        base
        for name in names
        if exception_like(name, bases.get(name, ()))
        for base in bases.get(name, ())
    )


def exception_like(name: str, bases: Iterable[str]) -> bool:
    """Whether a class may be an exception (or a warning), as its name or its bases' say."""
    return any(_EXCEPTIONISH.search(written) for written in (name, *bases))


def with_imports(
    read: Mapping[str, bytes],
    chosen: Iterable[str] | Mapping[str, frozenset[str] | None],
    modules: Mapping[str, str],
    levels: int,
    base_levels: int = 0,
) -> set[str]:
    """The chosen files and what they import, `levels` deep (a re-export through an
    `__init__` is no level of its own); then, `base_levels` further, the modules defining
    the bases of the classes the last level was reached for (an exception's bases).

    A mapping gives, for each chosen file, the names of its definitions that matter (those
    holding a frame's line or a raise): only what they use is followed; None, everything
    the file imports."""
    return set(imports_reached(read, chosen, modules, levels, base_levels))


def imports_reached(
    read: Mapping[str, bytes],
    chosen: Iterable[str] | Mapping[str, frozenset[str] | None],
    modules: Mapping[str, str],
    levels: int,
    base_levels: int = 0,
) -> dict[str, frozenset[str] | None]:
    """`with_imports`' files, each with the names the others import of it, over every
    statement that reached it (None: it is imported as a whole), and for a chosen file the
    names `chosen` gives it too."""
    frontier: dict[str, frozenset[str] | None] = (
        dict(chosen) if isinstance(chosen, Mapping) else dict.fromkeys(chosen)
    )
    kept = dict(frontier)
    first = set(frontier)
    reached: dict[str, frozenset[str] | None] = {}
    for level in range(levels + base_levels):
        found: dict[str, frozenset[str] | None] = {}
        for path, wanted in frontier.items():
            if level >= levels:  # only the bases of the classes wanted
                data = read.get(path)
                if wanted is None or data is None:
                    continue
                wanted = _bases(data, wanted)
            for file, names in _followed(read, path, wanted, modules, uses=level < levels):
                reached[file] = union_of(reached.get(file, frozenset()), names)
                if file not in kept:
                    found[file] = union_of(found.get(file, frozenset()), names)
        kept.update(found)
        frontier = found
    return {
        file: union_of(names, reached.get(file, frozenset())) if file in first else reached[file]
        for file, names in kept.items()
    }


def union_of(held: frozenset[str] | None, names: frozenset[str] | None) -> frozenset[str] | None:
    """Names wanted of a file by two statements (None: the whole file)."""
    return None if held is None or names is None else held | names
