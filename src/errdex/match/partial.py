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
from typing import Protocol, runtime_checkable

import msgspec

from errdex.link.resolve import BUILTIN_EXCEPTIONS
from errdex.match.evidence import ErrorEvidence, Evidence
from errdex.match.import_graph import module_files, with_imports
from errdex.match.lookup import frame_paths
from errdex.sources.base import Skipped, Source, SourceFile, VersionInfo

# Past this many files, a subset saves too little to be worth a second pass.
MAX_SUBSET_FILES = 400
IMPORT_LEVELS = 1
BASE_LEVELS = 3  # past the imports, the modules defining the bases of the classes used
# The files holding a bare message's runs best, at most: its raise is in one of them.
MAX_RUN_FILES = 12
# The files raising the paste's exception class, at most, when the message does not say
# where it was raised: past this many, the message is what tells them apart.
MAX_RAISING_FILES = 16
MAX_RAISED_CLASSES = 12  # classes whose raises are looked for (each a pass over the package)
# Pieces of the message searched in every file (each a pass over the package's bytes), and
# in all searched among the files those found.
_SCANNED_PIECES = 3
_SCORED_PIECES = 12

# Where a value is likely to start in a printed message: quotes, brackets, digits, `=`.
_VALUE = re.compile(r"""['"`<>(){}\[\]=]|\b\d[\w.:/-]*|\S*[/\\]\S*""")
# Where source code often breaks a long literal in two (`"... architecture. " "This ..."`):
# a piece of a run between such breaks is more likely to be in the source as it is.
_PIECE_BREAK = re.compile(r"(?<=[.,;:!?])\s+")
_TOP_LEVEL = re.compile(rb"^(?=[^\s#)\]}@])", re.MULTILINE)  # a statement at column 0
_CLASS = re.compile(rb"class[ \t]+(\w+)[^:\n]*")
_ERRORISH = re.compile(rb"Error|Exception|Warning|Exit|Abort|Fail")
_WORD_RUN_MIN = 12  # characters: shorter runs are found in too many files
_PIECE_WORDS = 4


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


def _holding_pieces(files: SourceFiles, pieces: list[str]) -> set[str]:
    """The files that hold the most of the message's pieces (by length held): the one that
    raised it holds them all, where a common phrase alone is in many files.

    Only the longest few pieces are looked for in every file; the rest only in the files
    those found, which is where the message is."""
    needles = [piece.encode() for piece in pieces[:_SCORED_PIECES]]
    found: set[str] = set()
    for needle in needles[:_SCANNED_PIECES]:
        found.update(path for path, data in files.every() if needle in data)
    score = {path: sum(len(n) for n in needles if n in files[path]) for path in found}
    if not score:
        return set()
    ranked = sorted(score.items(), key=lambda item: -item[1])
    best = ranked[0][1]
    return {path for path, held in ranked[:MAX_RUN_FILES] if held == best}


def _frame_files(files: SourceFiles, error: ErrorEvidence) -> list[str]:
    """The files of the source the error's frames (and log hint) name."""
    chosen = []
    for where in [f.path for f in error.frames] + [error.hint_file or ""]:
        for candidate in frame_paths(where) if where else []:
            if candidate in files:
                chosen.append(candidate)
                break
    return chosen


def _defines(data: bytes, name: str) -> bool:
    """Whether the file's bytes define a class of this name (checked cheaply first)."""
    if b"class " + name.encode() not in data:
        return False
    definition = re.compile(rb"^[ \t]*class[ \t]+" + re.escape(name.encode()) + rb"\b", re.M)
    return definition.search(data) is not None


def _raises(data: bytes, name: str) -> bool:
    """Whether the file's bytes raise the class `name` (or an alias it imports it as)."""
    written = name.encode()
    if written not in data:
        return False
    aliases = [written, *re.findall(rb"\b" + re.escape(written) + rb"[ \t]+as[ \t]+(\w+)", data)]
    either = b"|".join(re.escape(alias) for alias in aliases)
    return re.search(rb"raise[ \t]+(?:[\w.]+\.)?(?:" + either + rb")\b", data) is not None


def _classes_holding(data: bytes, pieces: list[str]) -> set[str]:
    """The top-level classes whose bodies hold one of the pieces: exception classes that
    compose the text themselves (`__str__`, `__init__`, a message attribute)."""
    found = set()
    for piece in pieces[:_SCANNED_PIECES]:
        at = data.find(piece.encode())
        if at < 0:
            continue
        starts = list(_TOP_LEVEL.finditer(data, 0, at))
        owner = _CLASS.match(data, starts[-1].start()) if starts else None
        # An exception class (or its mixin) composing its text, not a class whose method
        # raises with it.
        if owner is not None and _ERRORISH.search(owner.group(0)):
            found.add(owner.group(1).decode())
    return found


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


def _raising(files: SourceFiles, names: Iterable[str], holding: set[str]) -> set[str]:
    """Files that raise one of the classes, at most `MAX_RAISING_FILES` (those holding the
    message's pieces first): a message the class composes, or one with nothing literal, is
    shown by every raise of it."""
    wanted = list(dict.fromkeys(names))[:MAX_RAISED_CLASSES]  # nearest first
    if not wanted:
        return set()
    mentioned = re.compile(b"|".join(re.escape(name.encode()) for name in wanted))
    raising = [
        path
        for path, data in files.every()
        if mentioned.search(data) and any(_raises(data, n) for n in wanted)
    ]
    raising.sort(key=lambda path: path not in holding)
    return set(raising[:MAX_RAISING_FILES])


def needed_files(files: SourceFiles | Mapping[str, bytes], evidence: Evidence) -> set[str]:
    """The files a paste needs answered: its frames' files; when no frame holds the
    message, those holding its message's pieces and those raising its exception class or
    a class whose body composes the message; those defining its exception classes (in
    every file only when what the others import does not define them); what they import."""
    files = files if isinstance(files, SourceFiles) else SourceFiles.of(files)
    modules = module_files(files)
    chosen: set[str] = set()
    classes: list[str] = []
    for error in evidence.errors:
        framed = _frame_files(files, error)
        chosen.update(framed)
        pieces = message_pieces(error.message)
        name = error.exception.rsplit(".", 1)[-1] if error.exception else ""
        named = [name] if name.isidentifier() and name not in BUILTIN_EXCEPTIONS else []
        classes.extend(named)
        if pieces and any(pieces[0].encode() in files[path] for path in framed):
            continue  # the frames hold the message: the raise is there
        holding = _holding_pieces(files, pieces) if pieces else set()
        composing = {cls for path in holding for cls in _classes_holding(files[path], pieces)}
        subclasses = _subclasses(files, composing)
        raised = [*named, *sorted(composing), *subclasses]
        chosen |= holding | _raising(files, raised, holding)
    chosen = with_imports(files, chosen, modules, IMPORT_LEVELS, BASE_LEVELS)
    unseen = [
        name for name in classes if not any(_defines(files[p], name) for p in chosen if p in files)
    ]
    if unseen:
        defining = {path for path, data in files.every() if any(_defines(data, n) for n in unseen)}
        chosen |= with_imports(files, defining, modules, IMPORT_LEVELS, BASE_LEVELS)
    return chosen


class SubsetSource:
    """Some files of a source, as a version of its own whose pipeline says it is partial."""

    def __init__(self, source: Source, files: Iterable[SourceFile], total: int) -> None:
        self.files_kept = list(files)
        self.total = total
        self.skipped: list[Skipped] = []
        self.info: VersionInfo = msgspec.structs.replace(source.info)

    def files(self) -> Iterator[SourceFile]:
        yield from self.files_kept


def first_subset(source: Source, evidence: Evidence) -> SubsetSource | None:
    """The subset of `source` that answers `evidence`, or None when the whole is as cheap
    (nothing found to narrow it, or too much found)."""
    files = SourceFiles.of(source)
    wanted = needed_files(files, evidence)
    if not wanted or len(wanted) > min(MAX_SUBSET_FILES, len(files) // 2):
        return None
    kept = (SourceFile(path, files[path]) for path in sorted(wanted) if path in files)
    return SubsetSource(source, kept, len(files))
