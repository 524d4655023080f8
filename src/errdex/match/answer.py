"""A paste answered: its evidence read, the packages it needs indexed on the spot (installed
ones its frames name, or a release the caller or the paste names, from the download cache or
the package index), with `first` only the files the paste needs and the rest after, its sites
ranked. What every face that takes a paste calls."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from errdex.errors import NotFoundError, SourceError
from errdex.indexing import IndexReport
from errdex.lazy_re import lazy_compile
from errdex.match.evidence import Evidence
from errdex.match.installed import InstalledHere
from errdex.match.paste import parse_paste
from errdex.match.results import LookupResult
from errdex.store.base import Store

if TYPE_CHECKING:
    from errdex.match.partial import SubsetSource
    from errdex.sources.base import Source

_SITE_PACKAGES = lazy_compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_]\w*)")


class Answer(msgspec.Struct, kw_only=True):
    """A lookup's result, and what was indexed on the spot to give it."""

    result: LookupResult
    indexed: list[IndexReport] = []

    @property
    def partial(self) -> list[IndexReport]:
        """The versions answered from only some of their files (`complete` does the rest)."""
        return [report for report in self.indexed if report.partial]


def named_modules(evidence: Evidence) -> list[str]:
    """The top-level modules a paste's qualified exception classes name: the package behind
    `pygments.util.ClassNotFound` is known even with no frames to go on."""
    tops = [
        e.exception.split(".")[0] for e in evidence.errors if e.exception and "." in e.exception
    ]
    return [top for top in dict.fromkeys(tops) if top.isidentifier()]


def may_index(evidence: Evidence, project: str | None, release: str | None = None) -> bool:
    """Whether answering may index a package (into a new database, even)."""
    named = any(e.frames for e in evidence.errors) or named_modules(evidence)
    return bool(named) or project is not None or release is not None


def named_releases(text: str, evidence: Evidence) -> list[str]:
    """`NAME==VERSION` for each package the paste's frames or classes point into whose
    version the paste states (`vllm==0.10.2`, `transformers version: 4.38.2`, the
    `name-version.dist-info` of a path), so one not installed here can be downloaded."""
    frames = [f.path for e in evidence.errors for f in e.frames]
    tops = [m.group(1) for m in map(_SITE_PACKAGES.search, frames) if m is not None]
    found: list[str] = []
    for top in dict.fromkeys([*tops, *named_modules(evidence)]):
        name = re.escape(top).replace("_", "[-_.]")
        stated = re.search(
            rf"(?im)(?<![\w.-]){name}[`'\"]?"
            r"(?:==|-(?=[\d.]+\.dist-info)|[ \t]+version:?[ \t]*|:[ \t]+v?)"
            r"(?P<version>\d+(?:\.\d+)+(?:(?:a|b|rc|\.post|\.dev)\d+)?)(?!\w|\.\d)",
            text,
        )
        if stated is not None:
            found.append(f"{top}=={stated['version']}")
    return found


def answer_paste(
    store: Store,
    paste: str | Evidence,
    *,
    project: str | None = None,
    version: str | None = None,
    release: str | None = None,
    limit: int = 5,
    auto_index: bool = True,
    first: bool = False,
    announce: Callable[[str], None] | None = None,
    text: str | None = None,
) -> Answer:
    """The sites that raised what `paste` shows, best first.

    Installed packages the paste points into are indexed when the store lacks them; so is
    `release` (`NAME==VERSION`, read from the download cache or downloaded, never installed),
    and a release the paste states for a package not installed here (`text` is the paste
    as pasted, when `paste` is its evidence already). With `first`, a
    package not indexed yet is indexed from the files this paste needs only;
    `complete_answer` then indexes the rest.
    Raises `NotFoundError` when the store holds nothing to search, `SourceError` when
    `release` cannot be had.
    """
    evidence = parse_paste(paste) if isinstance(paste, str) else paste
    indexed: list[IndexReport] = []
    named: Source | None = None
    if release is not None:
        from errdex.sources.pypi import pypi_source

        named = pypi_source(release, layout=False)
        # As the release's metadata spells them, as they are stored (`SQLAlchemy`, `1.0`).
        project = project or named.info.project
        version = version or named.info.version
    quick: list[SubsetSource] = []  # subsets that left some raises for later
    if auto_index:
        indexed = _index_needed(
            store,
            evidence,
            paste if isinstance(paste, str) else text or "",
            project=project,
            release=named,
            first=first,
            announce=announce,
            quick=quick,
        )
    if not store.projects():
        raise NotFoundError("the database is empty: index something first: errdex index SOURCE")
    from errdex.match.lookup import rank

    # Where it may index what is installed here, this is the user's environment: the
    # releases installed here are evidence of which release the paste came from.
    here = InstalledHere() if auto_index else None
    result = rank(store, evidence, project=project, version=version, limit=limit, installed=here)
    if quick and not settles(result, evidence):
        fuller = _index_fuller(store, quick, indexed)
        if fuller is not None:  # else the fuller subsets are the quick ones: the same answer
            indexed = fuller
            result = rank(
                store, evidence, project=project, version=version, limit=limit, installed=here
            )
    return Answer(result=result, indexed=indexed)


def settles(result: LookupResult, evidence: Evidence) -> bool:
    """Whether the answer from a quick subset (`first_subset`'s `quick`) is the one the
    fuller subset gives: its best match is a template of the pasted class that reads the
    whole message, the longest literal run of it written there and the others written or
    read as values (sure or not: several sites may raise that text alike). The raises
    the quick subset left out are of that class, and either hold none of the text,
    matching by their class alone (ranked below a site of their class that the text pins),
    or hold less of it than the files kept, which hold the most."""
    from errdex.match.partial import literal_runs

    if len(evidence.errors) != 1 or not result.matches:
        return False
    best, error = result.matches[0], evidence.errors[0]
    message = best.site.site.message if best.site is not None else None
    if (
        message is None
        or not best.whole
        or best.guess
        or best.piece
        or best.partial
        or (best.exception or "").rsplit(".", 1)[-1] != (error.exception or "").rsplit(".", 1)[-1]
    ):
        return False
    written = " ".join("".join(p for p in message.parts if isinstance(p, str)).split())
    runs, values = literal_runs(error.message), list(best.values.values())
    # Its longest run written there; the others too, or read as values (a class's path).
    return (
        bool(runs)
        and runs[0] in written
        and all(run in written or any(run in value for value in values) for run in runs[1:])
    )


def _index_fuller(
    store: Store, quick: list[SubsetSource], indexed: list[IndexReport]
) -> list[IndexReport] | None:
    """Index the fuller subsets of the quick ones (the whole, where a fuller one is not worth
    it), in place of what the quick ones indexed; None when every fuller subset holds the
    files its quick one holds (the raises left for later were in them already)."""
    from errdex.indexing import index_source
    from errdex.indexing.on_demand import index_subset

    done = list(indexed)
    changed = False
    for subset in quick:
        fuller = subset.fuller() if subset.fuller is not None else None
        if fuller is not None and fuller.same_files(subset):
            continue
        changed = True
        report = (
            index_subset(store, fuller) if fuller is not None else index_source(subset.whole, store)
        )
        done = [
            report if (r.project, r.version) == (report.project, report.version) else r
            for r in done
        ]
    return done if changed else None


def _index_needed(
    store: Store,
    evidence: Evidence,
    text: str,
    *,
    project: str | None,
    release: Source | None,
    first: bool,
    announce: Callable[[str], None] | None,
    quick: list[SubsetSource],
) -> list[IndexReport]:
    """Index what answering needs and the store lacks (see `answer_paste`); the subsets
    indexed that left some raises for later are added to `quick`."""
    # Imported here: a lookup into an indexed package needs none of the indexing machinery,
    # and one into a release read from its archive none of the installed distributions'.
    from errdex.indexing.on_demand import index_wanted
    from errdex.match.partial import first_subset

    def narrow(source: Source) -> Source | None:
        subset = first_subset(source, evidence, quick=True)
        if subset is not None and subset.fuller is not None:
            quick.append(subset)
        return subset

    chosen = narrow if first else None
    if release is not None:
        report = index_wanted(store, release, what="", narrow=chosen, announce=announce)
        return [report] if report is not None else []
    # A release the paste states, when it is not the one installed here, is what raised.
    stated = {
        spec.partition("==")[0]: spec
        for spec in (named_releases(text, evidence) if text else [])
        if not _installed_here(spec)
    }
    from errdex.indexing.installed import index_missing

    paths = [
        f.path
        for e in evidence.errors
        for f in e.frames
        if not ((top := _SITE_PACKAGES.search(f.path)) and top.group(1) in stated)
    ]
    reports = index_missing(
        store,
        paths,
        modules=[m for m in named_modules(evidence) if m not in stated],
        names=[project] if project else [],
        announce=announce,
        narrow=chosen,
    )
    for spec in stated.values():
        # Imported here: reading an archive takes modules an installed package does not.
        from errdex.sources.pypi import pypi_source

        try:
            source = pypi_source(spec, layout=False)
        except SourceError:
            continue  # a release the index does not have: answer from what is held
        report = index_wanted(store, source, what="", narrow=chosen, announce=announce)
        if report is not None:
            reports.append(report)
    return reports


def _installed_here(spec: str) -> bool:
    """Whether the release `NAME==VERSION` (NAME a top-level module) is the one installed."""
    import importlib.metadata

    from errdex.indexing.installed import distributions_behind
    from errdex.sources.archive_names import same_version

    top, _, label = spec.partition("==")
    for dist in distributions_behind([], [top]):
        try:
            if same_version(importlib.metadata.version(dist), label):
                return True
        except importlib.metadata.PackageNotFoundError:
            continue
    return False


def complete_answer(store: Store, answer: Answer) -> list[IndexReport]:
    """Index whole what the answer indexed partly."""
    from errdex.indexing.on_demand import complete

    return complete(store, answer.partial)
