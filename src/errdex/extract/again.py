"""The second extraction of a file made from its first: only the functions whose text the
kept calls change are walked again.

The second round (`extract_again`) keeps the bodies that call another file's raising
helpers, which the first skeleton blanked. The rest of the file reads as it did the first
time, so its facts are the first extraction's. The file is cut into its top-level
statements (`FileFacts.outline`). A function or class the change leaves alone is parsed as a
one-line stub that binds its name (module constants count the names bound); a class that
changes, or derives from or gives rise to one that does, is parsed whole; the module-level
statements are parsed and walked as ever. The walk passes over the stubs and over the
unchanged methods of the classes parsed whole (`_SkippingWalker`), noting how many facts
each recorder held there: their first facts go in at that place, which is where the walk of
the whole file makes them. Lines of what is parsed whole are read again (a line's reading
says what its class's methods set), those of stubs keep their first readings.

A few facts reach across statements. How exception classes write their text
(`class_texts`) reads some methods of every class: a change to one of those, or anything
else that does not fit (a stub binding an unknown name, a name two statements define, a
fact made where the walk passed over), gives None, and the caller extracts the whole file
again, as before: only time is at stake. A function's own imports (`local_imports`) are
read again from the text where the change moves one.
"""

from __future__ import annotations

import ast
import bisect
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

import msgspec

from errdex.extract.blanked_calls import blanked_calls
from errdex.extract.blanked_imports import from_imports
from errdex.extract.calls import CallFilter
from errdex.extract.conditions import dotted_name
from errdex.extract.exception_classes import (
    EXCEPTION_HEADER,
    members_raised,
    reads_as_text,
    takes_values,
)
from errdex.extract.module import (
    collect_constants,
    collect_imports,
    module_name,
    resolve_local_imports,
)
from errdex.extract.reading import Wanted, read_lines
from errdex.extract.scope import Scope, Step
from errdex.extract.skeleton import Skeleton
from errdex.extract.value_reads import bound_values
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
        self.line_of = _LineOf(text)
        again_text = reduced.text if reduced is not None else text
        old, new = first_skeleton.text.split("\n"), again_text.split("\n")
        if len(old) != len(new):
            raise _Unfit  # a skeleton keeps every line
        self.changed = [n for n, (a, b) in enumerate(zip(old, new, strict=True), 1) if a != b]
        if not self.changed:
            raise _Unfit
        # A function's own import read from the text of a blanked body comes after those
        # walked (`local_imports`): where one moves, the order is made again.
        self.imports_move = any("import" in new[n - 1] for n in self.changed)
        self.starts = list(first.outline)
        self.lines_in = len(new)
        ends = [*self.starts[1:], len(new) + 1]
        walked = self._walked()
        # chunk → True where its first facts stand (a definition the change leaves alone)
        self.kept: list[bool] = []
        lines = list(new)
        for at, (start, end) in enumerate(zip(self.starts, ends, strict=True)):
            stub = _stub(new, start, end) if at not in walked else None
            self.kept.append(stub is not None)
            if stub is not None:
                lines[start - 1 : end - 1] = stub
        self.partial_text = "\n".join(lines)

    def _walked(self) -> set[int]:
        """The chunks parsed whole: those the change touches, and the classes of the file
        each of their classes derives from or gives rise to. A reading of a line in a
        method follows its class's methods and the bases the file defines at its top level
        by name (`reading._file_classes`): what they set changes with what is blanked, and
        a stub has no body to read."""
        walked = {self.chunk(n) for n in self.changed}
        top = [c for c in self.first.classes if c.qualname == c.name]
        chunk_of = {c.name: self.chunk(c.line) for c in top}
        related: dict[int, set[int]] = {}
        for c in top:
            for base in c.bases:
                if base in chunk_of:
                    related.setdefault(chunk_of[c.name], set()).add(chunk_of[base])
                    related.setdefault(chunk_of[base], set()).add(chunk_of[c.name])
        todo = list(walked)
        while todo:
            for at in related.get(todo.pop(), ()):
                if at not in walked:
                    walked.add(at)
                    todo.append(at)
        return walked

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
        self._check_bases(tree)
        walker = _SkippingWalker(text, collect_constants(tree, text), imports, self._skip(tree))
        walker.run(tree)
        self.regions = walker.skipped
        self.region_starts = [r.first for r in self.regions]
        self.region_names = {r.qualname: n for n, r in enumerate(self.regions)}
        definitions, recorded = walker.definitions, walker.calls
        sites = self.lines(first.sites, walker.sites.sites, "sites")
        if sites != list(first.sites):
            raise _Unfit  # the texts of the exception classes read the sites
        self._check_texts(tree, sites)
        classes = self.lines(first.classes, definitions.classes, "classes")
        local = (
            self._local_imports(module, is_package) if self.imports_move else first.local_imports
        )
        keep = CallFilter(
            set(first.defs),
            {c.qualname for c in classes},
            {m for c in classes for m in c.methods},
            imports,
            local,
        )
        calls = self.lines(first.calls, recorded.calls, "calls")
        # Every line of a statement parsed whole is read again, those of the methods not
        # walked too: what a line's reading says of its class (the attributes its methods
        # set) changes with the methods the change keeps.
        wanted: dict[int, Wanted] = {}
        for site in sites:
            if not self.kept_line(site.line):
                want = wanted.get(site.line) or wanted.setdefault(site.line, Wanted())
                want.add(site.line, site.conditions, site.bindings)
        for call in calls:
            if not self.kept_line(call.line):
                want = wanted.get(call.line) or wanted.setdefault(call.line, Wanted())
                want.add(call.line, call.conditions, every_word=True)
        blanked = self.reduced.blanked if self.reduced is not None else []
        read = read_lines(tree, text, wanted, blanked, walker.holders)
        taken = (n for n in first.readings if self.kept_line(n))
        readings = {
            line: read[line] if line in read else first.readings[line]
            for line in sorted({*read, *taken})
        }
        returned = {k: tuple(v) for k, v in definitions.returned_texts.items()}
        call_sites = self._call_sites(walker, keep)
        return msgspec.structs.replace(
            first,
            sites=tuple(sites),
            classes=tuple(classes),
            helpers=tuple(self.lines(first.helpers, definitions.helpers, "helpers")),
            keyed=tuple(self.named(first.keyed, definitions.keyed, "keyed")),
            calls=tuple(calls),
            reason_builders=self.keyed(
                first.reason_builders, definitions.reason_builders, "reason_builders"
            ),
            returned_texts=self.keyed(first.returned_texts, returned, "returned_texts"),
            factories=self.keyed(first.factories, walker.factories.factories(), "factories"),
            returns=self.keyed(first.returns, definitions.returns, "returns"),
            params=self.keyed(first.params, definitions.params, "params"),
            validators=self.keyed(first.validators, definitions.validators, "validators"),
            call_sites=call_sites,
            callbacks=tuple(
                c for c in self.lines(first.callbacks, recorded.callbacks, "callbacks") if keep(c)
            ),
            properties=tuple(self.lines(first.properties, definitions.properties, "properties")),
            tests=tuple(self.lines(first.tests, recorded.tests, "tests")),
            readings=readings,
            local_imports=local,
            # the kept statements' values were read by the first walk
            value_reads=bound_values(
                {**first.value_reads, **walker.state.value_reads}, sites, calls, call_sites
            ),
        )

    # -- the statements not walked, and where their first facts go --------------------------

    def _skip(self, tree: ast.Module) -> dict[int, tuple[int, int, str]]:
        """The statements not walked (by id) → their first and last lines and qualname: each
        stub, and each method of a walked class whose lines do not change (nor does any
        other method of its name)."""
        skip: dict[int, tuple[int, int, str]] = {}
        ends = [*self.starts[1:], self.lines_in + 1]
        for stmt in tree.body:
            at = self.chunk(_first_line(stmt))
            if self.kept_at(at):
                assert isinstance(stmt, ast.FunctionDef | ast.ClassDef), "a stub"
                skip[id(stmt)] = (self.starts[at], ends[at] - 1, stmt.name)
            elif isinstance(stmt, ast.ClassDef) and at >= 0:
                self._skip_methods(stmt, stmt.name, ends[at] - 1, skip)
        return skip

    def _skip_methods(
        self, cls: ast.ClassDef, qualname: str, last: int, skip: dict[int, tuple[int, int, str]]
    ) -> None:
        body = cls.body
        named = Counter(
            s.name for s in body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        for n, stmt in enumerate(body):
            first = _first_line(stmt)
            end = _first_line(body[n + 1]) - 1 if n + 1 < len(body) else last
            if isinstance(stmt, ast.ClassDef):
                self._skip_methods(stmt, f"{qualname}.{stmt.name}", end, skip)
            elif (
                isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
                and named[stmt.name] == 1
                and not _any_in(self.changed, first, end + 1)
            ):
                skip[id(stmt)] = (first, end, f"{qualname}.{stmt.name}")

    def region_at(self, line: int) -> int | None:
        """The statement not walked that holds `line`, if one does."""
        at = bisect.bisect_right(self.region_starts, line) - 1
        return at if at >= 0 and line <= self.regions[at].last else None

    def region_of(self, qualname: str) -> int | None:
        """The statement not walked that defines `qualname` (or its enclosing function or
        class), if one does; a qualname of no statement of the file is unknown."""
        if qualname.split(".", 1)[0] not in self.names:
            raise _Unfit
        while True:
            found = self.region_names.get(qualname)
            if found is not None or "." not in qualname:
                return found
            qualname = qualname.rpartition(".")[0]

    def lines(self, first: Iterable[_T], again: Sequence[_T], key: str) -> list[_T]:
        """Facts located by their `line`: the first ones of the statements not walked, put
        where the walk passed each, among the new ones (`key` names their recorder)."""
        return self._spliced_in(first, again, key, lambda item: self.region_at(item.line))  # type: ignore[attr-defined]

    def named(self, first: Iterable[_T], again: Sequence[_T], key: str) -> list[_T]:
        """Facts located by the qualname of their function or class."""
        return self._spliced_in(first, again, key, lambda item: self.region_of(item.qualname))  # type: ignore[attr-defined]

    def keyed(self, first: Mapping[str, Any], again: Mapping[str, Any], key: str) -> dict[str, Any]:
        """A mapping keyed by function qualnames, merged as `named`."""
        items = self._spliced_in(
            first.items(), list(again.items()), key, lambda item: self.region_of(item[0])
        )
        return dict(items)

    def _spliced_in(
        self,
        first: Iterable[_T],
        again: Sequence[_T],
        key: str,
        region: Callable[[_T], int | None],
    ) -> list[_T]:
        if any(region(item) is not None for item in again):
            raise _Unfit  # a walked statement made a fact of one that is not walked
        taken: list[list[_T]] = [[] for _ in self.regions]
        for item in first:
            at = region(item)
            if at is not None:
                taken[at].append(item)
        out: list[_T] = []
        done = 0
        for skipped, items in zip(self.regions, taken, strict=True):
            mark = skipped.marks[key]
            out.extend(again[done:mark])
            out.extend(items)
            done = mark
        out.extend(again[done:])
        return out

    def _local_imports(self, module: str, is_package: bool) -> dict[str, str]:
        """`local_imports` with the imports of the bodies kept now walked: those walked come
        first, in text order, then those read from the blanked bodies (`_extract_text`).

        The walked ones are read from the text too: each `from` statement of an indented
        line outside the blanked bodies (a guarded module-level import binds a name the
        module's imports hold, which `resolve_local_imports` drops). That reading must
        give the first facts' own `local_imports` from the first skeleton, else unfit.
        """
        text, first = self.text, self.first
        everywhere = from_imports(text, [(0, 0, len(text))], self.first_skeleton.strings)
        indented = [(at, s) for at, s in everywhere if text[text.rfind("\n", 0, at) + 1] in " \t"]

        def made(skeleton: Skeleton | None) -> dict[str, str]:
            blanked: set[int] = set()
            if skeleton is not None:
                regions = [*skeleton.blanked, *skeleton.trimmed]
                blanked = {at for at, _ in from_imports(text, regions, skeleton.strings)}
            walked = [s for at, s in indented if at not in blanked]
            read = [s for at, s in indented if at in blanked]
            found: dict[str, tuple[int, str | None, str] | None] = {}
            for statement in [*walked, *read]:
                for alias in statement.names:
                    name, source = (
                        alias.asname or alias.name,
                        (
                            statement.level,
                            statement.module,
                            alias.name,
                        ),
                    )
                    if found.setdefault(name, source) != source:
                        found[name] = None  # as `CallRecorder.imported_in_function`
            return resolve_local_imports(found, module, is_package, first.imports)

        if list(made(self.first_skeleton).items()) != list(first.local_imports.items()):
            raise _Unfit
        return made(self.reduced)

    def _call_sites(self, walker: _SkippingWalker, keep: CallFilter) -> tuple[Any, ...]:
        """The walked calls, then those read from the blanked bodies' text, each part merged
        as `lines` (the first facts' second part is what lies in their blanked bodies)."""
        first_walked, first_read = self._split_first_calls()
        taken: list[list[Any]] = [[] for _ in self.regions]
        for site in first_walked:
            at = self.region_at(site.line)
            if at is not None:
                taken[at].append(site)
        recorder = walker.calls
        walked: list[Any] = []
        done = 0
        for skipped, items in zip(self.regions, taken, strict=True):
            mark = skipped.marks["pending"]
            walked.extend(recorder.call_sites(keep, slice(done, mark)))
            walked.extend(items)
            done = mark
        walked.extend(recorder.call_sites(keep, slice(done, None)))
        reduced = self.reduced
        if reduced is None:
            return tuple(walked)  # no blanked body: the first facts' read calls go with theirs
        line_of = self.line_of
        spans = [s for s in reduced.blanked if self.region_at(line_of(s[0])) is None]
        tails = [s for s in reduced.trimmed if self.region_at(line_of(s[0])) is None]
        definitions = walker.definitions
        found = blanked_calls(
            self.text,
            spans,
            tails,
            definitions.functions_at,
            definitions.guard_after,
            reduced.strings,
            keep,
            definitions.param_types,
        )
        kept = [s for s in first_read if self.region_at(s.line) is not None]
        read = sorted([*kept, *found], key=lambda site: site.line)  # each part is in text order
        if not (_in_lines(kept) and _in_lines(found)):
            raise _Unfit
        return tuple(walked + read)

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
        line_of = self.line_of
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
        """A class parsed whole derives from no stub (see `_walked`)."""
        for stmt in tree.body:
            if isinstance(stmt, ast.ClassDef) and not self.kept_line(_first_line(stmt)):
                for base in stmt.bases:
                    if isinstance(base, ast.Name) and self._kept_class(base.id):
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


class _Skipped(NamedTuple):
    first: int  # its first line (of its decorators)
    last: int  # its last line (the next statement's first, less one)
    qualname: str
    marks: dict[str, int]  # how many facts each recorder held when the walk passed it


class _SkippingWalker(Walker):
    """A walker that passes over the statements `skip` names (by id, at the top level and
    in classes' bodies), noting for each where its first facts go (`skipped`)."""

    def __init__(
        self,
        text: str,
        constants: dict[str, Any],
        imports: Mapping[str, str],
        skip: dict[int, tuple[int, int, str]],
    ) -> None:
        super().__init__(text, constants, imports)
        self.skip = skip
        self.skipped: list[_Skipped] = []

    def _body(
        self, stmts: Sequence[ast.stmt], scope: Scope, path: tuple[Step, ...]
    ) -> tuple[Step, ...]:
        skip = self.skip
        if scope.is_function or not any(id(stmt) in skip for stmt in stmts):
            return super()._body(stmts, scope, path)
        # Walked in runs between the statements passed over: a definition makes no path.
        current, run = path, []
        for stmt in stmts:
            found = skip.get(id(stmt))
            if found is None:
                run.append(stmt)
                continue
            if run:
                current, run = super()._body(run, scope, current), []
            self.skipped.append(_Skipped(*found, self._marks()))
        return super()._body(run, scope, current) if run else current

    def _marks(self) -> dict[str, int]:
        definitions, calls = self.definitions, self.calls
        return {
            "sites": len(self.sites.sites),
            "classes": len(definitions.classes),
            "helpers": len(definitions.helpers),
            "keyed": len(definitions.keyed),
            "properties": len(definitions.properties),
            "reason_builders": len(definitions.reason_builders),
            "returned_texts": len(definitions.returned_texts),
            "returns": len(definitions.returns),
            "params": len(definitions.params),
            "validators": len(definitions.validators),
            "calls": len(calls.calls),
            "tests": len(calls.tests),
            "callbacks": len(calls.callbacks),
            "pending": calls.pending(),
            "factories": self.factories.made(),
        }


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


def _in_lines(sites: Sequence[Any]) -> bool:
    return all(a.line <= b.line for a, b in itertools.pairwise(sites))


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
