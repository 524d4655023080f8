"""A paste answered: its evidence read, the installed packages its frames name indexed on the
spot (with `first`, only the files the paste needs, the rest after), its sites ranked. What
every face that takes a paste calls."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from errdex.errors import NotFoundError
from errdex.indexing import IndexReport
from errdex.indexing.installed import complete, index_missing
from errdex.match.evidence import Evidence
from errdex.match.installed import InstalledHere
from errdex.match.lookup import rank
from errdex.match.partial import first_subset
from errdex.match.paste import parse_paste
from errdex.match.results import LookupResult
from errdex.sources.base import Source
from errdex.store.base import Store


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


def may_index(evidence: Evidence, project: str | None) -> bool:
    """Whether answering may index an installed package (into a new database, even)."""
    named = any(e.frames for e in evidence.errors) or named_modules(evidence)
    return bool(named) or project is not None


def answer_paste(
    store: Store,
    paste: str | Evidence,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
    auto_index: bool = True,
    first: bool = False,
    announce: Callable[[str], None] | None = None,
) -> Answer:
    """The sites that raised what `paste` shows, best first.

    With `first`, an installed package the paste names that is not indexed yet is indexed
    from the files this paste needs only; `complete_answer` then indexes the rest.
    Raises `NotFoundError` when the store holds nothing to search.
    """
    evidence = parse_paste(paste) if isinstance(paste, str) else paste
    indexed: list[IndexReport] = []
    if auto_index:
        paths = [f.path for e in evidence.errors for f in e.frames]

        def narrow(source: Source) -> Source | None:
            return first_subset(source, evidence)

        indexed = index_missing(
            store,
            paths,
            modules=named_modules(evidence),
            names=[project] if project else [],
            announce=announce,
            narrow=narrow if first else None,
        )
    if not store.projects():
        raise NotFoundError("the database is empty: index something first: errdex index SOURCE")
    # Where it may index what is installed here, this is the user's environment: the
    # releases installed here are evidence of which release the paste came from.
    here = InstalledHere() if auto_index else None
    result = rank(store, evidence, project=project, version=version, limit=limit, installed=here)
    return Answer(result=result, indexed=indexed)


def complete_answer(store: Store, answer: Answer) -> list[IndexReport]:
    """Index whole what the answer indexed partly."""
    return complete(store, answer.partial)
