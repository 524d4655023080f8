"""The first answer before the whole package: index only the files a paste needs, answer from
them, then complete the package.

A traceback names the files its frames ran in; a message holds pieces of text that the
file which raised it holds too (found by scanning bytes, as grep does); a message that
holds none, or one an exception class composes, is shown by the raises of that class. Those
files, what they import (one level, followed by name: the exception classes, constants and
helpers linking needs, and the bases of those classes) and the files defining the exception
classes the paste names make a subset that indexes in a fraction of the package's time. It
is stored as the version with a pipeline marked partial, so whatever reads it can say so,
and the next index of the package, or the next lookup into it, completes it.

Files are read when first needed: a traceback whose frames hold its message reads a few
dozen files, not the package; only a message with nothing to go on scans every file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import msgspec

from errdex.extract.textscan import inside_bounds, string_bounds
from errdex.facts import BUILTIN_EXCEPTIONS
from errdex.lazy_re import lazy_compile
from errdex.match.candidates import frame_paths
from errdex.match.evidence import ErrorEvidence, Evidence
from errdex.match.file_scan import (
    classes_at,
    classes_holding,
    constant_uses,
    defines,
    lines_of,
    raise_lines,
)
from errdex.match.import_graph import (
    definitions_at,
    imports_reached,
    module_files,
    union_of,
)
from errdex.match.lent_by_tests import is_test_code
from errdex.match.needed_text import Need, only_needed
from errdex.match.same_text import plainest
from errdex.sources.base import Skipped, Source, SourceFile, VersionInfo

if TYPE_CHECKING:
    from errdex.indexing.cache import FactsCache

# Past this many files, a subset saves too little to be worth a second pass.
MAX_SUBSET_FILES = 400
# A package of fewer files is indexed whole within the time a first answer may take, and
# what the whole knows of itself (a text composed from several files, every site raising
# the same text) then needs no subset to hold it.
MIN_PACKAGE_FILES = 150
IMPORT_LEVELS = 1
BASE_LEVELS = 3  # past the imports, the modules defining the bases of the classes used
# The files holding a bare message's runs best, at most: its raise is in one of them (or
# in each, the same text raised at several sites).
MAX_RUN_FILES = 24
# The files raising the paste's exception class, at most, when the message does not say
# where it was raised: past this many, the message is what tells them apart.
MAX_RAISING_FILES = 16
# The files holding a piece of a bare message that the files holding most of it lack, at
# most (a piece in more files is a common phrase: the raise is not told apart by it).
MAX_UNCOVERED_FILES = 2
MAX_RAISED_CLASSES = 12  # classes whose raises are looked for (each a pass over the package)
# Pieces of the message searched in every file (each a pass over the package's bytes), and
# in all searched among the files those found.
_SCANNED_PIECES = 3
_SCORED_PIECES = 12

# Where a value is likely to start in a printed message: quotes, brackets, digits, `=`.
_VALUE = lazy_compile(r"""['"`<>(){}\[\]=]|\b\d[\w.:/-]*|\S*[/\\]\S*""")
# Where source code often breaks a long literal in two (`"... architecture. " "This ..."`):
# a piece of a run between such breaks is more likely to be in the source as it is.
_PIECE_BREAK = lazy_compile(r"(?<=[.,;:!?])\s+")
_RICH_PANEL = lazy_compile(
    rb"^[ \t]*(?:from|import)[ \t]+rich(?:\.panel\b|[ \t]+import[^\n]*\bpanel\b)", re.M
)
_STRING_PREFIXES = frozenset({"", "r", "u", "b", "br", "rb"})
_WORD_RUN_MIN = 12  # characters: shorter runs are found in too many files
_PIECE_WORDS = 4
_SHORT_PIECE_MIN = 8  # characters of a piece of two or three words


@runtime_checkable
class ReadableSource(Protocol):
    """A source that lists its files' paths and reads one file on demand."""

    def paths(self) -> list[str]: ...

    def read(self, path: str) -> bytes | None: ...


class SourceFiles(Mapping[str, bytes]):
    """A source's files by path, each read when first asked for."""

    def __init__(self, paths: Iterable[str], read: Callable[[str], bytes | None]) -> None:
        self._paths = list(paths)
        self._known = set(self._paths)
        self._read = read
        self._data: dict[str, bytes] = {}
        self._missing: set[str] = set()
        # What a first subset found of them, for the fuller subset made after it from the
        # same files: the files holding some pieces, a file's text cut to a need.
        self.holding: dict[tuple[str, ...], set[str]] = {}
        self.cut: dict[tuple[str, Need | None], bytes] = {}

    @classmethod
    def of(cls, source: Source | Mapping[str, bytes]) -> SourceFiles:
        """The files of a source (all read at once when it cannot read one file alone), or
        of a mapping already in memory."""
        if isinstance(source, Mapping):
            return cls(source, source.get)
        if isinstance(source, ReadableSource):
            return cls(source.paths(), source.read)
        every = {f.path: f.data for f in source.files()}
        return cls(every, every.get)

    def __getitem__(self, path: str) -> bytes:
        data = self._data.get(path)
        if data is not None:
            return data
        if path not in self._known or path in self._missing:
            raise KeyError(path)
        read = self._read(path)
        if read is None:
            self._missing.add(path)
            raise KeyError(path)
        self._data[path] = read
        return read

    def __contains__(self, path: object) -> bool:
        return path in self._known and path not in self._missing

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def every(self) -> Iterator[tuple[str, bytes]]:
        """Every readable file's (path, bytes): a pass over the whole package."""
        for path in self._paths:
            data = self.get(path)
            if data is not None:
                yield path, data


def literal_runs(message: str) -> list[str]:
    """The message's runs of plain words between values, longest first: the source that
    raised it holds them as they are (values are what the code filled in)."""
    runs = [run.strip(" .,;:!?-") for run in _VALUE.split(message)]
    runs = [" ".join(run.split()) for run in runs]
    return sorted({run for run in runs if len(run) >= _WORD_RUN_MIN}, key=len, reverse=True)


def message_pieces(message: str) -> list[str]:
    """Pieces of the message's literal runs that the source likely holds as they are,
    longest first: runs cut where code tends to split a literal (after a full stop or a
    comma), then into a few words each, as a literal may be wrapped at any word."""
    pieces: set[str] = set()
    for run in literal_runs(message):
        for sentence in _PIECE_BREAK.split(run):
            words = sentence.strip(" .,;:!?-").split()
            for start in range(0, len(words), _PIECE_WORDS):
                piece = " ".join(words[start : start + _PIECE_WORDS])
                if start and len(piece) < _WORD_RUN_MIN:  # a short tail: with the words before
                    piece = " ".join(words[max(0, start - 2) : start + _PIECE_WORDS])
                if len(piece) >= _WORD_RUN_MIN:
                    pieces.add(piece)
    return sorted(pieces, key=lambda piece: (-len(piece), piece))


def short_pieces(message: str) -> list[str]:
    """Shorter pieces, for a message whose pieces no file holds: a value may sit inside a
    run of words (`Input path: babel does not exist`), so the words either side of it are
    looked for, two or three at a time, longest first."""
    pieces: set[str] = set()
    for run in _VALUE.split(message):
        for sentence in _PIECE_BREAK.split(" ".join(run.split())):
            words = sentence.strip(" .,;:!?-").split()
            for size in (3, 2):
                for start in range(len(words) - size + 1):
                    piece = " ".join(words[start : start + size])
                    if len(piece) >= _SHORT_PIECE_MIN:
                        pieces.add(piece)
    return sorted(pieces, key=lambda piece: (-len(piece), piece))


def _holding_pieces(files: SourceFiles, pieces: list[str]) -> set[str]:
    """The files that hold the most of the message's pieces (by length held): the one that
    raised it holds them all, where a common phrase alone is in many files.

    Only the longest few pieces are looked for in every file; the rest only in the files
    those found, which is where the message is."""
    known = files.holding.get(tuple(pieces))
    if known is None:
        known = files.holding[tuple(pieces)] = _most_pieces(files, pieces)
    return set(known)


def _most_pieces(files: SourceFiles, pieces: list[str]) -> set[str]:
    """`_holding_pieces`, read off the files."""
    needles = [piece.encode() for piece in pieces[:_SCORED_PIECES]]
    found: set[str] = set()
    for needle in needles[:_SCANNED_PIECES]:
        found.update(path for path, data in files.every() if needle in data)
    prose: dict[str, list[int]] = {}

    def in_code(path: str, needle: bytes) -> bool:
        data = files[path]
        at = data.find(needle)
        if at >= 0 and path not in prose:
            prose[path] = _prose_bounds(data)
        while at >= 0:
            if not inside_bounds(prose[path], at):
                return True
            at = data.find(needle, at + 1)
        return False

    score = {path: sum(len(n) for n in needles if in_code(path, n)) for path in found}
    score = {path: held for path, held in score.items() if held}
    # A package's tests hold its messages too, often more of one than the raise that breaks
    # it over two literals (`pytest.raises(match=...)`); what they lend is never an answer
    # of its own (`lent_by_tests`): the package's own files are scored first.
    own = {path: held for path, held in score.items() if not is_test_code(path)}
    score = own or score
    if not score:
        return set()
    best = max(score.values())
    # Files holding the message alike raise the same text at several sites: the answer is
    # the site a user most likely hit, so those the ranker puts first are kept.
    tied = sorted((path for path, held in score.items() if held == best), key=plainest)
    kept = set(tied[:MAX_RUN_FILES])
    # The source may break the longest run over two literals (`"cannot be " "used with"`):
    # the file that raised it then holds only the shorter pieces, which the files kept for
    # the longest, another message's, lack. A piece none of them holds is looked for in the
    # few files holding it.
    for needle in needles[:_SCANNED_PIECES]:
        if any(needle in files[path] and in_code(path, needle) for path in kept):
            continue
        holders = sorted((path for path in score if in_code(path, needle)), key=plainest)
        if len(holders) <= MAX_UNCOVERED_FILES:
            kept.update(holders)
    return kept


def _prose_bounds(data: bytes) -> list[int]:
    """The bounds (`textscan.string_bounds`, as byte offsets) of the file's strings that
    stand at column 0 as statements of their own: a module's docstring, a bare string. They
    document a text (a dialect's notes quoting its errors), they do not raise it."""
    text = data.decode("latin-1")  # one character a byte: the offsets are the bytes'
    bounds = string_bounds(text)
    kept: list[int] = []
    for start, end in zip(bounds[::2], bounds[1::2], strict=True):
        line = text.rfind("\n", 0, start) + 1
        if len(text[line:start]) <= 2 and text[line:start].lower() in _STRING_PREFIXES:
            kept += [start, end]
    return kept


def _frame_files(files: SourceFiles, error: ErrorEvidence) -> dict[str, set[int] | None]:
    """The files of the source the error's frames (and log hint) name, with the lines they
    name (None: a frame without its line)."""
    places = [(f.path, f.line) for f in error.frames]
    if error.hint_file:
        places.append((error.hint_file, error.hint_line))
    chosen: dict[str, set[int] | None] = {}
    for where, line in places:
        for candidate in frame_paths(where):
            if candidate in files:
                _add_lines(chosen, candidate, None if line is None else [line])
                break
    return chosen


def _add_lines(chosen: dict[str, set[int] | None], path: str, lines: Iterable[int] | None) -> None:
    """Note that `path` is needed for these lines (None: for all of it)."""
    if lines is None:
        chosen[path] = None
    elif path not in chosen:
        chosen[path] = set(lines)
    elif (held := chosen[path]) is not None:
        held.update(lines)


def _subclasses(files: SourceFiles, names: set[str], depth: int = 2) -> list[str]:
    """The classes of the package written with one of `names` among their bases, `depth`
    generations down, nearest first (a mixin that composes the text is raised through its
    subclasses)."""
    found: list[str] = []
    parents = set(names)
    for _ in range(depth):
        if not parents:
            break
        either = b"|".join(re.escape(name.encode()) for name in sorted(parents))
        pattern = re.compile(rb"^[ \t]*class[ \t]+(\w+)[ \t]*\([^)]*\b(?:" + either + rb")\b", re.M)
        children = {
            m.group(1).decode()
            for _, data in files.every()
            if any(p.encode() in data for p in parents)
            for m in pattern.finditer(data)
        }
        parents = children - set(found) - names
        found.extend(sorted(parents))
    return found


def _raising(
    files: SourceFiles,
    names: Iterable[str],
    holding: Iterable[str],
    needles: Iterable[bytes] = (),
    composing: Iterable[str] = (),
) -> dict[str, list[int]]:
    """Files that raise one of the classes, at most `MAX_RAISING_FILES` (those holding the
    message's pieces first), with the lines of those raises: a message the class composes,
    or one with nothing literal, is shown by every raise of it.

    When some of them hold a piece of the message (`needles`) or raise a class that composes
    it (`composing`), only those: a raise of the class whose file holds none of the text
    matches the message only by its class, which the raise that holds the text outranks
    (`CompileError` is raised in every dialect; one file holds its message)."""
    wanted = list(dict.fromkeys(names))[:MAX_RAISED_CLASSES]  # nearest first
    if not wanted:
        return {}
    composed = set(composing)
    pieces = list(needles)
    mentioned = re.compile(b"|".join(re.escape(name.encode()) for name in wanted))
    raising: dict[str, list[int]] = {}
    textual: set[str] = set()
    for path, data in files.every():
        if mentioned.search(data):
            found = {name: raise_lines(data, name) for name in wanted}
            lines = [line for name in wanted for line in found[name]]
            if lines:
                raising[path] = lines
                if any(found[name] for name in composed) or any(n in data for n in pieces):
                    textual.add(path)
    if textual:
        raising = {path: lines for path, lines in raising.items() if path in textual}
    first = sorted(raising, key=lambda path: path not in holding)[:MAX_RAISING_FILES]
    return {path: raising[path] for path in first}


def needed_files(files: SourceFiles | Mapping[str, bytes], evidence: Evidence) -> set[str] | None:
    """The files a paste needs answered (see `needed_parts`)."""
    parts = needed_parts(files, evidence)
    return None if parts is None else set(parts)


def needed_parts(
    files: SourceFiles | Mapping[str, bytes],
    evidence: Evidence,
    deferred: list[str] | None = None,
) -> dict[str, Need | None] | None:
    """The files a paste needs answered: its frames' files; when no frame holds the
    message, those holding its message's pieces and those raising its exception class or
    a class whose body composes the message; those defining its exception classes (in
    every file only when what the others import does not define them); and what the
    definitions holding those frames, messages and raises use from the files they import.
    Each file comes with what of it is needed (`Need`): the definitions holding the lines of
    its frames, messages and raises, and the names other files import of it; None for the
    whole (a frame without its line, a line at module level, a module imported whole).

    None when the paste gives nothing to look for (no frame into the package, no piece of
    text long enough, no class of its own): the whole may still match its short words.

    With `deferred` (a list), the raises of the pasted class are left out where files hold
    the message's text and no class composes it, and the class is added to the list: a
    raise of it holding none of the text only matches by its class, which the site whose
    template reads the whole message outranks (`settles` tells, once ranked)."""
    files = files if isinstance(files, SourceFiles) else SourceFiles.of(files)
    modules = module_files(files)
    chosen: dict[str, set[int] | None] = {}
    classes: list[str] = []
    searched = False
    for error in evidence.errors:
        framed = _frame_files(files, error)
        for path, framed_lines in framed.items():
            _add_lines(chosen, path, framed_lines)
        pieces = message_pieces(error.message)
        named = _own_class(error.exception or "")
        classes.extend(named)
        searched = searched or bool(framed or pieces or named)
        longest = [piece.encode() for piece in pieces[:_SCANNED_PIECES]]
        framing = [path for path in framed if any(piece in files[path] for piece in longest)]
        if framing:
            # The frames hold the message: the raise is there (any of its longest pieces: the
            # source may break the others over two literals, or one may be a value), at the
            # lines holding it too (the traceback may be of another version of the file).
            for path in framing:
                _add_lines(chosen, path, lines_of(files[path], longest))
            continue
        holding = _holding_pieces(files, pieces) if pieces else set()
        if pieces and not holding:
            pieces = short_pieces(error.message)
            holding = _holding_pieces(files, pieces)
        needles = [piece.encode() for piece in pieces[:_SCORED_PIECES]]
        composing: set[str] = set()
        for path in holding:
            data = files[path]
            lines = lines_of(data, needles)
            uses = constant_uses(data, lines)
            _add_lines(
                chosen, path, [*lines, *(data.count(b"\n", 0, at) + 1 for at in uses)] or None
            )
            # A class composing its text from the constant (`__init__`: INSTRUCTIONS.format)
            composing |= classes_holding(data, pieces[:_SCANNED_PIECES]) | classes_at(data, uses)
        subclasses = _subclasses(files, composing)
        raised = [*named, *sorted(composing), *subclasses]
        shown_by = [*composing, *subclasses]
        if deferred is not None and holding and named and not shown_by:
            deferred.extend(named)
            continue
        longest = needles[:_SCANNED_PIECES]  # a short phrase (`is associated with`) is anywhere
        for path, raised_at in _raising(files, raised, holding, longest, shown_by).items():
            _add_lines(chosen, path, raised_at)
    if not searched:
        return None
    wanted = {path: _definitions(files, path, lines) for path, lines in chosen.items()}
    if any(error.boxed for error in evidence.errors):
        # Whether the release draws its errors in rich panels is read off its imports: one
        # file importing rich's panels tells it, as the whole would.
        panels = next((p for p, data in files.every() if _RICH_PANEL.search(data)), None)
        if panels is not None:
            wanted.setdefault(panels, frozenset())
    found = imports_reached(files, wanted, modules, IMPORT_LEVELS, BASE_LEVELS)
    unseen = [
        name for name in classes if not any(defines(files[p], name) for p in found if p in files)
    ]
    if unseen:
        defining = {
            path: frozenset(unseen)
            for path, data in files.every()
            if any(defines(data, n) for n in unseen)
        }
        for path, names in imports_reached(
            files, defining, modules, IMPORT_LEVELS, BASE_LEVELS
        ).items():
            found[path] = union_of(found[path], names) if path in found else names
    return {path: _need(names, chosen.get(path, ())) for path, names in found.items()}


def _need(names: frozenset[str] | None, lines: Iterable[int] | None) -> Need | None:
    return None if names is None or lines is None else Need(names, frozenset(lines))


def _own_class(pasted: str) -> list[str]:
    """The pasted class's name, when it may be the package's own: not a builtin, unless the
    paste names its package (`requests.exceptions.ConnectionError`), as the ranker reads it."""
    name = pasted.rsplit(".", 1)[-1]
    qualified = "." in pasted and not pasted.startswith("builtins.")
    return [name] if name.isidentifier() and (qualified or name not in BUILTIN_EXCEPTIONS) else []


def _definitions(files: SourceFiles, path: str, lines: set[int] | None) -> frozenset[str] | None:
    """The names of the file's top-level definitions that hold the lines (None: the whole
    file matters)."""
    data = files.get(path)
    return None if lines is None or data is None else definitions_at(data, lines)


class SubsetSource:
    """Some files of a source, as a version of its own whose pipeline says it is partial.

    A file imported only for some names is extracted from `only_needed`'s text of it;
    `as_written` holds such files as they are written, for whatever a page quotes of them."""

    def __init__(
        self,
        source: Source,
        files: Iterable[SourceFile],
        total: int,
        as_written: Mapping[str, bytes] | None = None,
    ) -> None:
        self.files_kept = list(files)
        self.total = total
        self.as_written = dict(as_written or {})
        self.skipped: list[Skipped] = []
        self.info: VersionInfo = msgspec.structs.replace(source.info)
        self.whole = source
        # The subset holding what this one left for later (`first_subset`'s `quick`).
        self.fuller: Callable[[], SubsetSource | None] | None = None
        # The facts of its files, in memory, once indexed (`index_subset`): its fuller
        # subset shares them, so a file both hold is extracted once.
        self.facts: FactsCache | None = None

    def files(self) -> Iterator[SourceFile]:
        yield from self.files_kept

    def same_files(self, other: SubsetSource) -> bool:
        """Whether the other subset holds these files, cut alike."""
        return [(f.path, f.data) for f in self.files_kept] == [
            (f.path, f.data) for f in other.files_kept
        ]


def first_subset(
    source: Source, evidence: Evidence, quick: bool = False, files: SourceFiles | None = None
) -> SubsetSource | None:
    """The subset of `source` that answers `evidence`, or None when the whole is as cheap
    (a small package, nothing to look for, or too much found).

    With `quick`, the raises of the pasted class are deferred where files hold the message
    (see `needed_parts`): the subset's `fuller` then makes the subset that holds them, for
    when the answer from the quick one is not settled.

    Nothing found is an empty subset: no frame names a file of the package and no file holds
    a piece of the message or raises its class, so the whole would match it by its place or
    class nowhere, and by its text only through a template of short literals around long
    values; rare enough that the answer (none) does not wait for the whole. `files`: the
    source's files as read already."""
    files = files if files is not None else SourceFiles.of(source)
    if len(files) < MIN_PACKAGE_FILES:
        return None
    deferred: list[str] | None = [] if quick else None
    wanted = needed_parts(files, evidence, deferred)
    if wanted is None or len(wanted) > min(MAX_SUBSET_FILES, len(files) // 2):
        return None
    kept: list[SourceFile] = []
    stored: dict[str, bytes] = {}
    # In the source's own order, as the whole is written: sites that tie are then met in
    # the same order as in the whole.
    for path in files:
        if path not in wanted or path not in files:
            continue
        data = files[path]
        need = wanted[path]
        needed = files.cut.get((path, need))
        if needed is None:
            needed = files.cut[path, need] = data if need is None else only_needed(data, need, path)
        if needed is not data:
            stored[path] = data
        kept.append(SourceFile(path, needed))
    subset = SubsetSource(source, kept, len(files), stored)
    if deferred:

        def fuller() -> SubsetSource | None:
            more = first_subset(source, evidence, files=files)  # the files read once
            if more is not None:
                more.facts = subset.facts
            return more

        subset.fuller = fuller
    return subset
