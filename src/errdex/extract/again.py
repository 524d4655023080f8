"""The second extraction of a file made from its first: only the top-level statements whose
text the kept calls change are parsed and walked again.

The second round (`extract_again`) keeps the bodies that call another file's raising
helpers, which the first skeleton blanked. Everything else of the file reads the same text
as the first time, so its facts are the first extraction's. The file is cut into its
top-level statements (`FileFacts.outline`): a statement whose text the two skeletons write
alike, and that defines a function or a class, is parsed as a one-line stub that binds its
name (module constants count the names bound), is not walked, and keeps its first facts;
the rest (the statements that change, and the module-level ones, cheap and read by every
walk) is parsed, walked and read as a whole extraction would. Each fact is put back where
the walk of the whole file would have made it: the facts of one top-level statement come
together, in the order of the statements.

A few facts read across statements: how a file's exception classes write their text
(`class_texts`), and the readings that follow a class's base defined in the same file.
Where a change could reach one of them, or where anything does not fit (a stub that does
not parse, facts out of the statements' order, a name two statements define), the answer
is None and the caller extracts the whole file again, as before: only time is at stake.
"""

from __future__ import annotations

import ast
import bisect
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from errdex.extract.blanked_calls import blanked_calls
from errdex.extract.calls import CallFilter
from errdex.extract.conditions import dotted_name
from errdex.extract.exception_classes import (
    EXCEPTION_HEADER,
    members_raised,
    reads_as_text,
    takes_values,
)
from errdex.extract.module import collect_constants, collect_imports, module_name
from errdex.extract.reading import Wanted, read_lines
from errdex.extract.skeleton import Skeleton
from errdex.extract.walker import Walker
from errdex.facts import FileFacts
from errdex.lazy_re import lazy_compile

__all__ = ["spliced"]

_T = TypeVar("_T")
# The first line of a top-level definition: its decorators, or its `def`/`class` line.
_DEFINITION_START = lazy_compile(r"(?:@|def[ \t]|async[ \t]|class[ \t])")
_DEF_LINE = lazy_compile(r"(?:async[ \t]+)?def[ \t]+(\w+)")
_CLASS_LINE = lazy_compile(r"class[ \t]+(\w+)")
# `self.name(` anywhere: every method a text method may call with values (`_given_values`).
_SELF_CALLED = lazy_compile(r"self\.(\w+)\(")


class _Unfit(Exception):
    """The file does not fit the splice: extract it whole."""


def spliced(
    path: str, text: str, first_skeleton: Skeleton, reduced: Skeleton | None, first: FileFacts
) -> FileFacts | None:
    """The facts `_extract_text(path, text, reduced)` makes, from `first`, the facts of the
    same file extracted from its first skeleton's text (`build_skeleton(text)`, which
    parsed); None when the file does not fit (see the module's docstring)."""
    if first.error is not None or not first.outline:
        return None
    if (first.sites or first.calls) and not first.readings:
        return None  # read none (too deeply nested): the whole extraction says what now
    try:
        return _Splice(path, text, first_skeleton, reduced, first).facts()
    except (_Unfit, SyntaxError, ValueError, RecursionError):
        return None


class _Splice:
    def __init__(
        self,
        path: str,
        text: str,
        first_skeleton: Skeleton,
        reduced: Skeleton | None,
        first: FileFacts,
    ) -> None:
        self.path, self.text, self.reduced, self.first = path, text, reduced, first
        self.first_skeleton = first_skeleton
        again_text = reduced.text if reduced is not None else text
        old, new = first_skeleton.text.split("\n"), again_text.split("\n")
        if len(old) != len(new):
            raise _Unfit  # a skeleton keeps every line
        self.changed = [n for n, (a, b) in enumerate(zip(old, new, strict=True), 1) if a != b]
        if not self.changed:
            raise _Unfit
        if any("import" in new[n - 1] for n in self.changed):
            # A function's own imports, read from the text in a blanked body and walked in a
            # kept one, come in another order (`local_imports`): where none moves, the first
            # facts' stand.
            raise _Unfit
        self.starts = list(first.outline)
        ends = [*self.starts[1:], len(new) + 1]
        # chunk → True where its first facts stand (a definition the change leaves alone)
        self.kept: list[bool] = []
        lines = list(new)
        for start, end in zip(self.starts, ends, strict=True):
            untouched = not _any_in(self.changed, start, end)
            stub = _stub(new, start, end) if untouched else None
            self.kept.append(stub is not None)
            if stub is not None:
                lines[start - 1 : end - 1] = stub
        self.partial_text = "\n".join(lines)

    # -- where each fact comes from --------------------------------------------------------

    def chunk(self, line: int) -> int:
        return bisect.bisect_right(self.starts, line) - 1

    def kept_line(self, line: int) -> bool:
        return self.kept_at(self.chunk(line))

    def kept_at(self, at: int) -> bool:
        return at >= 0 and self.kept[at]

    def facts(self) -> FileFacts:
        first, text = self.first, self.text
        module, is_package = module_name(self.path)
        tree = _parse(self.partial_text, self.path)
        imports, stars = collect_imports(tree, module, is_package)
        if imports != first.imports or stars != first.star_imports:
            raise _Unfit
        self.names = self._names(tree)
        self._check_stubs(tree)
        live = [s for s in tree.body if not self.kept_line(_first_line(s))]
        self._check_bases(tree)
        walker = Walker(text, collect_constants(tree, text), imports)
        walker.run(ast.Module(body=live, type_ignores=[]))
        definitions, recorded = walker.definitions, walker.calls
        sites = self.lines(first.sites, walker.sites.sites)
        if sites != list(first.sites):
            raise _Unfit  # the texts of the exception classes read the sites
        self._check_texts(tree, sites)
        classes = self.lines(first.classes, definitions.classes)
        calls = self.lines(first.calls, recorded.calls)
        keep = CallFilter(
            set(first.defs),
            {c.qualname for c in classes},
            {m for c in classes for m in c.methods},
            imports,
            first.local_imports,
        )
        wanted: dict[int, Wanted] = {}
        for site in walker.sites.sites:
            want = wanted.get(site.line) or wanted.setdefault(site.line, Wanted())
            want.add(site.line, site.conditions, site.bindings)
        for call in recorded.calls:
            want = wanted.get(call.line) or wanted.setdefault(call.line, Wanted())
            want.add(call.line, call.conditions, every_word=True)
        blanked = self.reduced.blanked if self.reduced is not None else []
        read = read_lines(tree, text, wanted, blanked, walker.holders)
        readings = {
            line: read[line] if line in read else first.readings[line]
            for line in sorted({*read, *(n for n in first.readings if self.kept_line(n))})
        }
        return msgspec.structs.replace(
            first,
            sites=tuple(sites),
            classes=tuple(classes),
            helpers=tuple(self.lines(first.helpers, definitions.helpers)),
            keyed=tuple(self.named(first.keyed, definitions.keyed, lambda k: k.qualname)),
            calls=tuple(calls),
            reason_builders=self.keyed(first.reason_builders, definitions.reason_builders),
            returned_texts=self.keyed(
                first.returned_texts,
                {k: tuple(v) for k, v in definitions.returned_texts.items()},
            ),
            factories=self.keyed(first.factories, walker.factories.factories()),
            returns=self.keyed(first.returns, definitions.returns),
            params=self.keyed(first.params, definitions.params),
            validators=self.keyed(first.validators, definitions.validators),
            call_sites=self._call_sites(walker, keep),
            properties=tuple(self.lines(first.properties, definitions.properties)),
            tests=tuple(self.lines(first.tests, recorded.tests)),
            readings=readings,
        )

    def lines(self, first: Iterable[_T], again: Iterable[_T]) -> list[_T]:
        """Facts located by their `line`: the first ones of the statements kept, the new
        ones of the rest, in the statements' order."""
        return self._merged(first, again, lambda item: self.chunk(item.line))  # type: ignore[attr-defined]

    def named(
        self, first: Iterable[_T], again: Iterable[_T], qualname: Callable[[_T], str]
    ) -> list[_T]:
        """Facts located by the qualname of their function or class."""
        return self._merged(first, again, lambda item: self._chunk_of(qualname(item)))

    def keyed(self, first: Mapping[str, Any], again: Mapping[str, Any]) -> dict[str, Any]:
        """A mapping keyed by function qualnames, merged as `named`."""
        return dict(self.named(first.items(), again.items(), lambda item: item[0]))

    def _chunk_of(self, qualname: str) -> int:
        found = self.names.get(qualname.split(".", 1)[0])
        if found is None:
            raise _Unfit
        return found

    def _merged(
        self, first: Iterable[_T], again: Iterable[_T], chunk: Callable[[_T], int]
    ) -> list[_T]:
        taken = [(at, item) for item in first if self.kept_at(at := chunk(item))]
        made = [(chunk(item), item) for item in again]
        if any(self.kept_at(at) for at, _ in made):
            raise _Unfit  # a walked statement made a fact of one that is not walked
        if not (_in_order(taken) and _in_order(made)):
            raise _Unfit  # not in the statements' order: where the new ones go is unknown
        out: list[_T] = []
        i = 0
        for at, item in made:
            while i < len(taken) and taken[i][0] < at:
                out.append(taken[i][1])
                i += 1
            out.append(item)
        out.extend(item for _, item in taken[i:])
        return out

    def _call_sites(self, walker: Walker, keep: CallFilter) -> tuple[Any, ...]:
        """The walked calls, then those read from the blanked bodies' text, each part merged
        as `lines` (the first facts' second part is what lies in their blanked bodies)."""
        first_walked, first_read = self._split_first_calls()
        walked = self.lines(first_walked, walker.calls.call_sites(keep))
        reduced = self.reduced
        if reduced is None:
            return tuple(walked)  # no blanked body: the first facts' read calls go with theirs
        line_of = _LineOf(self.text)
        spans = [s for s in reduced.blanked if not self.kept_line(line_of(s[0]))]
        tails = [s for s in reduced.trimmed if not self.kept_line(line_of(s[0]))]
        definitions = walker.definitions
        found = blanked_calls(
            self.text,
            spans,
            tails,
            definitions.functions_at,
            definitions.guard_after,
            reduced.strings,
            keep,
        )
        return tuple(walked + self.lines(first_read, found))

    def _split_first_calls(self) -> tuple[list[Any], list[Any]]:
        """The first facts' call sites: those walked, and those read from the text of the
        bodies the first skeleton blanked (the last ones, all inside such a body)."""
        sites = list(self.first.call_sites)
        regions = self._first_regions()
        cut = len(sites)
        while cut and _in_regions(regions, sites[cut - 1].line):
            cut -= 1
        if any(_in_regions(regions, s.line) for s in sites[:cut]):
            raise _Unfit
        return sites[:cut], sites[cut:]

    def _first_regions(self) -> list[tuple[int, int]]:
        """The lines of the bodies and tails the first skeleton blanked, in order: a call
        read from the text lies in one of them, a walked one in none."""
        first = self.first_skeleton
        line_of = _LineOf(self.text)
        regions = [
            (line_of(start), line_of(max(start, end - 1)))
            for _, start, end in (*first.blanked, *first.trimmed)
        ]
        return sorted(regions)

    # -- what may reach across statements ---------------------------------------------------

    def _names(self, tree: ast.Module) -> dict[str, int]:
        """Each name a top-level statement defines (a function or a class, at the top or in
        a module-level block) → that statement's chunk."""
        names: dict[str, int] = {}
        for stmt in tree.body:
            at = self.chunk(_first_line(stmt))
            for name in _defined(stmt):
                if names.setdefault(name, at) != at:
                    raise _Unfit  # defined by two statements: its facts' place is unknown
        return names

    def _check_stubs(self, tree: ast.Module) -> None:
        """Each stub binds a name the first facts say the file defines at its top level (a
        `def` or `class` line the stub took from inside a decorator's text would bind
        another)."""
        defined = {*self.first.defs, *(c.qualname for c in self.first.classes)}
        for stmt in tree.body:
            if self.kept_line(_first_line(stmt)) and (
                not isinstance(stmt, ast.FunctionDef | ast.ClassDef) or stmt.name not in defined
            ):
                raise _Unfit

    def _check_bases(self, tree: ast.Module) -> None:
        """A reading follows a class's bases the file defines at its top level: a base and
        its subclass are both kept, or both walked."""
        for stmt in tree.body:
            if isinstance(stmt, ast.ClassDef) and not self.kept_line(_first_line(stmt)):
                for base in stmt.bases:
                    if isinstance(base, ast.Name) and self._kept_class(base.id):
                        raise _Unfit
        for fact in self.first.classes:
            if fact.qualname == fact.name and self.kept_line(fact.line):
                for written in fact.bases:
                    if written in self.names and not self.kept_at(self.names[written]):
                        raise _Unfit

    def _kept_class(self, name: str) -> bool:
        at = self.names.get(name)
        return at is not None and self.kept_at(at)

    def _check_texts(self, tree: ast.Module, sites: Sequence[Any]) -> None:
        """The texts of the exception classes (`class_texts`) stay the first ones unless a
        method whose body changes is one they read: a text method or property (of any
        class: what they call is read in every class), or, in a class whose texts may be
        read, its constructor, a member a raise reads, or a method that may be given values
        (`self.x(...)`)."""
        raised = members_raised(sites)
        members = set().union(*raised.values()) if raised else set()
        called: set[str] | None = None
        for stmt in tree.body:
            if self.kept_line(_first_line(stmt)):
                continue
            for cls, method in _methods(stmt, ""):
                if not _any_in(self.changed, _first_line(method), (method.end_lineno or 0) + 1):
                    continue
                if reads_as_text(method) or any(
                    (dotted_name(d) or "").endswith("property") for d in method.decorator_list
                ):
                    raise _Unfit
                if not self._may_be_read(cls, raised):
                    continue
                if method.name == "__init__":
                    raise _Unfit
                if method.name in members and len(method.args.args) == 1:
                    raise _Unfit
                if takes_values(method):
                    if called is None:
                        called = set(_SELF_CALLED.findall(self.text))
                    if method.name in called:
                        raise _Unfit

    def _may_be_read(self, cls: tuple[ast.ClassDef, str], raised: Mapping[str, Any]) -> bool:
        """Whether `class_texts` may read the class's methods: it looks like an exception,
        a raise reads its members, or a base of it is a class of the file."""
        stmt, qualname = cls
        bases = [dotted_name(base) or "" for base in stmt.bases]
        return (
            EXCEPTION_HEADER.search(" ".join((stmt.name, *bases))) is not None
            or qualname in raised
            or any(base.rsplit(".", 1)[-1] in self.names for base in bases)
        )


def _parse(text: str, path: str) -> ast.Module:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes in indexed code
        return ast.parse(text, filename=path, type_comments=False)


def _stub(lines: Sequence[str], start: int, end: int) -> list[str] | None:
    """The lines of a top-level definition (lines `start` to `end - 1`) as a stub that binds
    its name on its `def`/`class` line, the rest blank; None for another statement."""
    if not _DEFINITION_START.match(lines[start - 1]):
        return None
    for n in range(start, end):
        line = lines[n - 1]
        if found := _DEF_LINE.match(line):
            stub = f"def {found.group(1)}(): ..."
        elif found := _CLASS_LINE.match(line):
            stub = f"class {found.group(1)}: ..."
        else:
            continue
        return ["" if m != n else stub for m in range(start, end)]
    return None


def _in_order(located: list[tuple[int, Any]]) -> bool:
    return all(a[0] <= b[0] for a, b in itertools.pairwise(located))


def _first_line(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None)
    return decorators[0].lineno if decorators else stmt.lineno


def _any_in(sorted_lines: list[int], start: int, end: int) -> bool:
    at = bisect.bisect_left(sorted_lines, start)
    return at < len(sorted_lines) and sorted_lines[at] < end


def _in_regions(regions: list[tuple[int, int]], line: int) -> bool:
    at = bisect.bisect_right(regions, (line, 1 << 62)) - 1
    return at >= 0 and regions[at][0] <= line <= regions[at][1]


_BLOCKS = (ast.If, ast.Try, ast.TryStar, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)


def _defined(stmt: ast.stmt) -> Iterable[str]:
    """The functions and classes a module-level statement defines (in its blocks too)."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield stmt.name
    elif isinstance(stmt, _BLOCKS):
        for field in ("body", "orelse", "finalbody"):
            for inner in getattr(stmt, field, ()):
                yield from _defined(inner)
        for handler in getattr(stmt, "handlers", ()):
            for inner in handler.body:
                yield from _defined(inner)


def _methods(
    stmt: ast.stmt, prefix: str
) -> Iterable[tuple[tuple[ast.ClassDef, str], ast.FunctionDef | ast.AsyncFunctionDef]]:
    """((class, its qualname), method) of each function defined in the body of a class of
    a top-level statement, nested classes too."""
    if isinstance(stmt, ast.ClassDef):
        qualname = prefix + stmt.name
        for item in stmt.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                yield (stmt, qualname), item
            else:
                yield from _methods(item, qualname + ".")
    elif isinstance(stmt, _BLOCKS) and not prefix:
        for field in ("body", "orelse", "finalbody"):
            for inner in getattr(stmt, field, ()):
                yield from _methods(inner, prefix)


class _LineOf:
    """The line (from 1) of an offset of a text."""

    def __init__(self, text: str) -> None:
        self._ends = [m.start() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect.bisect_left(self._ends, offset) + 1
