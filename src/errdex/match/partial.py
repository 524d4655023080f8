"""The first answer before the whole package: index only the files a paste needs, answer from
them, then complete the package.

A traceback names the files its frames ran in; a message holds literal runs that the file
which raised it holds too (found by scanning bytes, as grep does). Those files, the modules
they import (two levels, for the exception classes, constants and helpers linking needs)
and the files defining the exception classes the paste names make a subset that indexes in
a fraction of the package's time. It is stored as the version with a pipeline marked
partial, so whatever reads it can say so, and the next index of the package, or the next
lookup into it, completes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

import msgspec

from errdex.match.evidence import Evidence
from errdex.match.lookup import frame_paths
from errdex.sources.base import Skipped, Source, SourceFile, VersionInfo

# Past this many files, a subset saves too little to be worth a second pass.
MAX_SUBSET_FILES = 400
IMPORT_LEVELS = 2
# The files holding a bare message's runs best, at most: its raise is in one of them.
MAX_RUN_FILES = 12

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<from>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\(?[^#\n]*)"
    r"|import[ \t]+(?P<modules>[\w., \t]+))",
    re.MULTILINE,
)
# Where a value is likely to start in a printed message: quotes, brackets, digits, `=`.
_VALUE = re.compile(r"""['"`<>(){}\[\]=]|\b\d[\w.:/-]*|\S*[/\\]\S*""")
_WORD_RUN_MIN = 12  # characters: shorter runs are found in too many files


def literal_runs(message: str) -> list[str]:
    """The message's runs of plain words between values, longest first: the source that
    raised it holds them as they are (values are what the code filled in)."""
    runs = [run.strip(" .,;:!?-") for run in _VALUE.split(message)]
    runs = [" ".join(run.split()) for run in runs]
    return sorted({run for run in runs if len(run) >= _WORD_RUN_MIN}, key=len, reverse=True)


def _module_files(files: Mapping[str, bytes]) -> dict[str, str]:
    """Dotted module name → file, for every file of the source."""
    modules: dict[str, str] = {}
    for path in files:
        name = path.removesuffix(".pyi").removesuffix(".py").replace("/", ".")
        modules[name.removesuffix(".__init__")] = path
    return modules


def _imported(path: str, data: bytes, modules: Mapping[str, str]) -> Iterator[str]:
    """The files of the source that one file imports (absolute, relative, and `from pkg
    import submodule`)."""
    package = path.replace("/", ".").rsplit(".", 1)[0]
    if not path.endswith("__init__.py"):
        package = package.rsplit(".", 1)[0] if "." in package else ""
    else:
        package = package.removesuffix(".__init__")
    text = data.decode("utf-8", "replace")
    for match in _IMPORT.finditer(text):
        if match["modules"]:
            bases = [part.strip().split(" ")[0] for part in match["modules"].split(",")]
            names: list[str] = []
        else:
            written = match["from"]
            dots = len(written) - len(written.lstrip("."))
            if dots:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (dots - 1)] if dots > 1 else parts
                base = ".".join([*parts, written.lstrip(".")] if written.lstrip(".") else parts)
            else:
                base = written
            bases = [base]
            names = [n.strip().split(" ")[0] for n in match["names"].strip("() \\").split(",")]
        for base in bases:
            if base in modules:
                yield modules[base]
            for name in names:
                if f"{base}.{name}" in modules:
                    yield modules[f"{base}.{name}"]


def _holding_runs(files: Mapping[str, bytes], runs: list[str]) -> set[str]:
    """The files that hold the most of the message's literal runs (by length held): the one
    that raised it holds them all, where a common phrase alone is in many files."""
    score: dict[str, int] = {}
    for run in runs:
        needle = run.encode()
        for path, data in files.items():
            if needle in data:
                score[path] = score.get(path, 0) + len(run)
    if not score:
        return set()
    ranked = sorted(score.items(), key=lambda item: -item[1])
    best = ranked[0][1]
    return {path for path, held in ranked[:MAX_RUN_FILES] if held == best}


def needed_files(files: Mapping[str, bytes], evidence: Evidence) -> set[str]:
    """The files a paste needs answered: its frames' files, those holding its message's
    literal runs, those defining its exception classes, and what they import."""
    chosen: set[str] = set()
    for error in evidence.errors:
        for where in [f.path for f in error.frames] + [error.hint_file or ""]:
            for candidate in frame_paths(where) if where else []:
                if candidate in files:
                    chosen.add(candidate)
                    break
        chosen.update(_holding_runs(files, literal_runs(error.message)[:4]))
        if error.exception:
            name = error.exception.rsplit(".", 1)[-1].encode()
            definition = re.compile(rb"^[ \t]*class[ \t]+" + re.escape(name) + rb"\b", re.M)
            chosen.update(path for path, data in files.items() if definition.search(data))
    modules = _module_files(files)
    frontier = set(chosen)
    for _ in range(IMPORT_LEVELS):
        found = {f for path in frontier for f in _imported(path, files[path], modules)}
        frontier = found - chosen
        chosen |= found
    # A package's `__init__` files hold what its modules re-export: linking resolves through them.
    for path in list(chosen):
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            init = "/".join(parts[:depth]) + "/__init__.py"
            if init in files:
                chosen.add(init)
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
    every = {f.path: f for f in source.files()}
    wanted = needed_files({path: f.data for path, f in every.items()}, evidence)
    if not wanted or len(wanted) > min(MAX_SUBSET_FILES, len(every) // 2):
        return None
    return SubsetSource(source, (every[path] for path in sorted(wanted)), len(every))
