"""A paste answered for a person: the ranked matches, the best one's page and source file, and
the versions indexed on the way (those answered from part of their files completed after the
answer is shown). `errdex.answer` and `errdex.search` open the store and call these."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from errdex.indexing import IndexReport
from errdex.indexing.gcpause import cyclic_gc_paused
from errdex.match import lookup_text
from errdex.match.answer import answer_paste, complete_answer
from errdex.match.evidence import Evidence
from errdex.match.results import LookupAnswer, LookupResult, Match
from errdex.store.base import Store

if TYPE_CHECKING:  # a page is built only when asked for: `lookup --json` needs no explainer
    from errdex.explain.page import Page

__all__ = ["PasteAnswer", "answer_for_reader", "search_catalog"]


class PasteAnswer(msgspec.Struct, kw_only=True):
    """A lookup as a person reads it: the result, and with `pages` the best match's page and
    the text of its file; the versions indexed to answer it."""

    result: LookupResult
    indexed: list[IndexReport] = []
    page: Page | None = None  # the best match's page
    file_text: str | None = None  # the best match's source file, as indexed

    @property
    def best(self) -> Match | None:
        return self.result.matches[0] if self.result.matches else None

    @property
    def partial(self) -> list[IndexReport]:
        """The versions answered from only some of their files, indexed whole after."""
        return [report for report in self.indexed if report.partial]

    def record(self) -> LookupAnswer:
        """What programs read of it (`lookup --json`, `/api/search`)."""
        return self.result.answer(self.partial)


def answer_for_reader(
    store: Store,
    evidence: Evidence,
    *,
    text: str | None = None,
    project: str | None = None,
    version: str | None = None,
    release: str | None = None,
    limit: int = 5,
    auto_index: bool = True,
    partial_first: bool = True,
    pages: bool = False,
    announce: Callable[[str], None] | None = None,
    answered: Callable[[PasteAnswer], None] | None = None,
) -> PasteAnswer:
    """The paste's answer (`text`: the paste as pasted, where a release may be stated);
    `answered` is given it as soon as it stands, before the versions first indexed from
    part of their files (with `partial_first`) are indexed whole (Ctrl-C during that leaves
    them for the next lookup)."""
    # The collector paused until the answer is given: what answering makes (the modules it
    # imports, the files it reads and parses, the sites it links) lives until the answer,
    # so each collection it would trigger, or an extraction batch's own, walks it all for
    # nothing; and the first collection once it is back on walks everything made since
    # the pause began, which waits until the answer is out.
    with cyclic_gc_paused(hold=True):
        first = answer_paste(
            store,
            evidence,
            project=project,
            version=version,
            release=release,
            limit=limit,
            auto_index=auto_index,
            first=partial_first,
            announce=announce,
            text=text,
        )
        answer = PasteAnswer(result=first.result, indexed=first.indexed)
        _add_best_page(store, answer, pages=pages, file_text=pages)
        if answered is not None:
            answered(answer)
    complete_answer(store, first)
    return answer


def search_catalog(
    store: Store,
    text: str,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
    pages: bool = False,
) -> PasteAnswer:
    """The paste searched in the catalog as it is: nothing indexed, and an empty catalog
    answers with no match (a server's installed packages are not the user's). With
    `pages`, the best match's page (not its file: a web page shows the page's snippet)."""
    answer = PasteAnswer(
        result=lookup_text(store, text, project=project, version=version, limit=limit)
    )
    _add_best_page(store, answer, pages=pages, file_text=False)
    return answer


def _add_best_page(store: Store, answer: PasteAnswer, *, pages: bool, file_text: bool) -> None:
    """The best match's page (with `pages`) and source file (with `file_text`)."""
    best = answer.best
    if best is None:
        return
    if file_text and best.site is not None:
        answer.file_text = store.file_text(best.site.version_id, best.file)
    if pages:
        from errdex.explain import build_page
        from errdex.explain.advice import fill_values

        answer.page = fill_values(build_page(store, best.id, best.version), best.values)
