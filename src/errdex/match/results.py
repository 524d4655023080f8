"""What a lookup answers: ranked matches, each a site with its score, values and reasons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from errdex.history.timeline import NewestVersion
from errdex.match.evidence import Evidence
from errdex.match.releases import VersionSpan
from errdex.match.same_text import SiteRef
from errdex.settable import settable_text
from errdex.store.base import StoredSite

if TYPE_CHECKING:
    from errdex.indexing import IndexReport

__all__ = ["LookupAnswer", "LookupResult", "Match", "MatchRecord", "PartialIndex", "VariantMatch"]


class VariantMatch(msgspec.Struct, frozen=True):
    """The reason of a reasons list that the message names."""

    reason: str
    file: str
    line: int
    function: str
    conditions: list[str]


class MatchRecord(msgspec.Struct, kw_only=True):
    """One ranked answer as programs read it (`lookup --json`, `/api/search`)."""

    id: str
    project: str
    version: str
    kind: str
    exception: str | None
    message: str | None  # the template
    file: str
    line: int
    function: str
    url: str | None
    score: float
    values: dict[str, str]  # placeholder source → the text it held in the paste
    variant: VariantMatch | None = None
    shown: str | None = None  # the text as the user sees it, when the paste matched that
    why: list[str] = []
    # The paste pins this site: its text or a frame, and, where the error sits elsewhere in
    # other releases, the evidence of which release it came from.
    confident: bool = False
    newest: NewestVersion | None = None  # in an older version: the error in the newest one
    versions: list[VersionSpan] = []  # where the error is, per run of releases, newest first
    merged: list[str] = []  # the error's ids in other releases (reworded or moved), matched too
    # The other sites that raise the very same text, when nothing in the paste tells them
    # apart (this one is the likeliest; `why` says why).
    others: list[SiteRef] = []
    raised_at: int = 1  # how many sites raise this text: this one and `others`
    # Of a text raised at several sites, what put this one first, `why` says it in words:
    # `made_here` (a raise, where others re-raise a caught error or assert), `own_function`
    # (others are nested functions), `raises_itself` (others are a helper's raise, reached
    # through a call), `fewer_conditions`, `shallower_module`, `public_name`,
    # `fewer_underscores`, or `file_order` (nothing tells them apart). None otherwise.
    tie_break: str | None = None
    # Of a text raised at several sites, the likelier result ranked above this one (which
    # lists this site among its `others`).
    same_text_as: str | None = None
    # The result is the raise inside a helper, and this is the call that gave the helper the
    # text (`ctx.fail("...")`): its conditions say when it happens.
    called_at: SiteRef | None = None


class Match(MatchRecord, kw_only=True):
    """One ranked answer: the record, and what ranking and pages need besides."""

    site: StoredSite | None = None  # the full record, for pages
    # Matched by its class alone (its message is computed at the raise), with no frame
    # pinning it: a guess, when another site's template explains the text.
    guess: bool = False
    # The message read as a piece from inside the template.
    piece: bool = False
    # The template read inside a longer message: text of the message is left unexplained.
    partial: bool = False
    # The template spans the message from its start to its end.
    whole: bool = False
    # A traceback frame or a log line points at the site.
    pinned: bool = False
    # The text that explains the paste is one a call in the package's tests lends the site
    # (`lent_by_tests.py`): no user of the package sees it.
    lent: bool = False

    def literal_length(self) -> int:
        """The literal text of the site's template: of two equal scores, the message written
        out at more length explains the paste with less left to chance."""
        if self.site is None or self.site.site.message is None:
            return 0
        if self.guess and settable_text(self.site.site) is not None:
            return 0  # a default a user may replace, not read against the paste
        return self.site.site.message.literal_length

    def public(self) -> MatchRecord:
        """The record alone, as JSON carries it."""
        return MatchRecord(**{name: getattr(self, name) for name in MatchRecord.__struct_fields__})


class LookupResult(msgspec.Struct, kw_only=True):
    matches: list[Match]  # what the text or a frame explains, best first
    nearest: list[Match]  # when nothing matched: the closest templates, with their scores
    evidence: Evidence

    def answer(self, partial: Sequence[IndexReport] = ()) -> LookupAnswer:
        """What programs read of a lookup: the matches and the nearest, as records, and the
        versions answered from only some of their files (`partial`, a first answer's)."""
        return LookupAnswer(
            matches=[m.public() for m in self.matches],
            nearest=[m.public() for m in self.nearest],
            partial_index=[
                PartialIndex(project=r.project, version=r.version, files=r.files) for r in partial
            ],
        )


class LookupAnswer(msgspec.Struct, kw_only=True):
    """A lookup as programs read it (`lookup --json`, `/api/search`)."""

    matches: list[MatchRecord]  # confident answers, best first
    nearest: list[MatchRecord]  # when nothing matched: the closest templates
    partial_index: list[PartialIndex] = []


class PartialIndex(msgspec.Struct, kw_only=True):
    """A version the answer read only part of (the files the traceback named first); the
    rest is indexed after the answer."""

    project: str
    version: str
    files: int
