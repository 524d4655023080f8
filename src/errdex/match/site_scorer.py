"""Scoring one candidate site against one pasted error: how well its text reads the
message, what else agrees (exception class, frames, hints, a reason variant), every piece of
agreement named in `why`."""

from __future__ import annotations

from collections.abc import Sequence

from errdex.facts import MessageTemplate, SiteKind, Variant
from errdex.linked_facts import ShownText
from errdex.match.clues import printed_clues
from errdex.match.collected import collects, prints_collection
from errdex.match.evidence import ErrorEvidence, at_lines
from errdex.match.given_text import shared_with_default
from errdex.match.lent_by_tests import lent_by_tests
from errdex.match.logged import spanning
from errdex.match.message_reading import Readings, best_form, read_message
from errdex.match.pattern import TemplateMatch, compile_template, literal_runs
from errdex.match.readings import printed_name
from errdex.match.results import Match, VariantMatch
from errdex.match.weights import WEIGHTS as W
from errdex.match.words import shows_none_of, stems
from errdex.match.wrapped import Inner, wrapped_match
from errdex.settable import settable_text
from errdex.store.base import StoredSite

__all__ = ["SiteScorer"]


class SiteScorer:
    """Scores candidate sites against one piece of evidence."""

    def __init__(
        self,
        evidence: ErrorEvidence,
        weight: float,
        *,
        cut: bool = False,
        inner: Sequence[Inner] = (),
        logged: bool = False,
        memo: Readings | None = None,
    ) -> None:
        self.evidence = evidence
        self.weight = weight
        self.cut = cut
        self.inner = inner  # texts of other sites the message may hold (`wrapped.py`)
        # The candidates are the pasted logger's own calls at the pasted level: a template
        # spanning the whole line is a reading, however little of it is literal text.
        self.logged = logged
        self.exception = printed_name(evidence.exception or "") or None
        # The readings of texts already tried in this lookup: the releases of a package share
        # most of their templates and composed texts, and rounds meet the same ones again.
        self.memo: Readings = {} if memo is None else memo

    def score(self, stored: StoredSite) -> Match | None:
        site = stored.site
        why: list[str] = []
        matched = read_message(site.message, self.evidence, cut=self.cut, memo=self.memo)
        if matched is None and self.logged:
            matched = spanning(site.message, self.evidence.message)
        form, whole_line = best_form(stored, self.evidence, matched, cut=self.cut, memo=self.memo)
        if form is not None:
            matched = form[0]
        if wrapping := wrapped_match(stored, self.evidence.message, self.inner, matched):
            matched, form = wrapping.match, wrapping.form
        total, variant = self._text_score(stored, matched, form, why)
        why += [wrapping.reason] if wrapping else []
        values = matched.values if matched is not None else {}
        pinned = self._pinned(stored)
        if pinned:
            total += pinned[0]
            why.append(pinned[1])
        for bonus, reason in printed_clues(self.evidence, stored, bool(pinned)):
            total, why = total + bonus, [*why, reason]
        by_class = matched is None and self._raised_as_is(stored)
        collection: str | None = None
        if matched is None and not pinned and not by_class:
            return None
        # A printed form holding what the parser read as the class (`Error: ...`) says
        # nothing of the class.
        agreement = 0.0 if whole_line else self._exception_agreement(stored, why)
        total += agreement
        if by_class:
            # The message is whatever the raise was given (`raise ConnectionError(e)`):
            # only the class, the frames and what the guard names can tell.
            total += W.by_class + self._context(stored, why)
            given = settable_text(site)
            collection = collects(site, self.evidence.message)
            if collection is not None:
                # `errors = []` ... `raise ValidationError(errors)`: the texts inside were
                # written elsewhere; this raise is the one given what the paste prints.
                total += W.collected
                why.append(f"given {collection}, a collection, as the message prints one")
            if given is not None:
                # `self.message or "default"`: the paste may show what a user set, less
                # likely than what a raise computes each time, unless words tie it there.
                total += W.settable_text
                why.append(f"its text is {given} where set, its written one the default")
            elif shows_none_of(site.message, self.evidence.message):
                # The site writes a text of its own, and the paste shows another.
                total += W.other_text
            elif _spans(site.message, self.evidence.message):
                total += W.short_text
                why.append("its text spans the message, though little of it is written out")
            reraise = site.kind is SiteKind.RERAISE
            if reraise or _prints_nothing(stored):
                # A paste of the class alone is what such a raise prints (a re-raise, what
                # it caught: the ties put the raise that made it first); a message pasted
                # is not, or was first raised elsewhere (the traceback's innermost frame
                # is never a re-raise): the raises that give the class a text come first.
                if not self.evidence.message.strip():
                    total += W.no_text
                elif reraise:
                    total -= W.no_text
                    why.append("re-raised here: first raised elsewhere")
                else:
                    total -= W.no_text
                    why.append("raised with no text of its own, yet the paste shows one")
            why.append(
                "matched by its class: raised without a message, as pasted"
                if site.message is None and not self.evidence.message.strip()
                else "the message is computed at the raise; matched by its class"
            )
        elif (
            matched is None
            and pinned
            and pinned[0] >= W.innermost_frame
            and (agreement >= W.same_class or not _class_written(stored))
        ):
            # The innermost frame names this raise and its class agrees or is not written
            # there (`raise validation_error`): its text is another (a translation, a
            # message its caller set) or computed, so it contradicts no message. An object
            # made elsewhere may be of the pasted class: as good as the class agreeing,
            # for a text the class composes is shared by every raise of it.
            total += W.by_class + (0.0 if _class_written(stored) else W.same_class)
            why.append(
                "the frame and the class name this raise; its text is another"
                if agreement >= W.same_class
                else "the frame names this raise; its class and text are made elsewhere"
            )
        lent = lent_by_tests(stored, form[1] if form is not None else None)
        confident = not (lent and pinned is None) and (
            (
                matched is not None
                and (
                    matched.covered >= W.min_covered
                    or (matched.whole and matched.literal >= W.min_literal_whole)
                )
            )
            or bool(pinned and pinned[0] >= W.outer_frame)
            or (by_class and agreement >= W.same_class and self.qualified(stored))
        )
        return Match(
            id=stored.id,
            project=stored.project,
            version=stored.version,
            kind=str(site.kind),
            exception=stored.exception.name if stored.exception else site.exception,
            message=site.message.text if site.message else None,
            file=stored.file,
            line=site.line,
            function=site.function,
            url=stored.url,
            score=round(total * self.weight, 4),
            values=values,
            variant=variant,
            shown=form[1].text.text if form is not None else None,
            why=why,
            confident=confident,
            site=stored,
            # (the list or dict the message prints is what it raises: not its class alone)
            guess=by_class and not pinned and collection is None,
            piece=matched is not None and matched.fragment,
            partial=(
                matched is not None
                and not (matched.whole or matched.fragment or self.cut)
                and not self.evidence.truncated
            ),
            whole=matched is not None and matched.whole,
            pinned=pinned is not None,
            lent=lent,
        )

    def _text_score(
        self,
        stored: StoredSite,
        matched: TemplateMatch | None,
        form: tuple[TemplateMatch, ShownText] | None,
        why: list[str],
    ) -> tuple[float, VariantMatch | None]:
        """How much of the message the site's text explains, and the reason it names."""
        if matched is None:
            return 0.0, None
        total = matched.score
        if matched.whole and matched.score < W.whole_floor:
            # The template spans the message, its values long (a path, a dict): it
            # explains the text at least as well as any raise matched by its class.
            total = W.whole_floor
        if matched.fragment:
            why.append("the message is a piece of the template")
        elif form is not None:
            why.append(f"message matches the text {form[1].how} shows")
        else:
            why.append(
                f"message matches the template ({matched.covered:.0%} of it is literal text)"
            )
        if not matched.whole and prints_collection(self.evidence.message):
            # One text of the list or dict the paste prints: written here, raised by the
            # code that collected it (`collected.py`).
            total -= W.collected
            why.append("one of the texts of the collection the message prints")
        variant = _variant(stored.site.variants, matched, stored.file)
        if variant is not None:
            total += W.reason
            why.append(f"names the reason {variant.reason!r}")
        return total, variant

    def _raised_as_is(self, stored: StoredSite) -> bool:
        """A raise of the pasted class whose message cannot be compared: it has (almost) no
        literal text, or the class is the project's own (the paste may wrap its message)."""
        if self.exception is None:
            return False
        message = stored.site.message
        info = stored.exception
        name = info.name if info else stored.site.exception
        if printed_name(name or "") != self.exception:
            return False
        literal = message.literal_length if message is not None else 0
        return (
            literal < 6
            or (info is not None and info.defined_in is not None)
            or settable_text(stored.site) is not None
        )

    def qualified(self, stored: StoredSite) -> bool:
        """The paste names the class with its module, and it is this site's class (or the
        class is the project's own, not a builtin)."""
        info = stored.exception
        if info is None:
            return False
        pasted = (self.evidence.exception or "").lower()
        qualname = info.qualname.lower()
        if "." in pasted:
            # `pkg.errors.Error` printed for `pkg.errors.Error`, or for a class re-exported
            # from the package root (`pkg.Error`): the top-level package must agree.
            return qualname == pasted or qualname.split(".")[0] == pasted.split(".")[0]
        return info.defined_in is not None

    def _context(self, stored: StoredSite, why: list[str]) -> float:
        """Words of the site's guard (caught classes, tested names) that the message holds,
        and words of the message's own text (not its values) that name the site's function
        or class (`URL.__call__` for `Invalid URL.`)."""
        words = set(stems(self.evidence.message))
        guard = {t for c in stored.site.conditions for t in stems(c.statement)}
        shared = sorted(words & guard)
        if shared:
            why.append("the guard mentions " + ", ".join(shared[:4]))
        prose = set(stems(" ".join(literal_runs(self.evidence.message))))
        function = stored.site.function
        named = sorted((prose & set(stems(function.replace("<locals>", "")))) - guard)
        if named:
            why.append(f"the message names {function} ({', '.join(named[:4])})")
        reworded: list[str] = []
        if settable_text(stored.site) is not None:
            reworded = sorted(set(shared_with_default(stored.site, self.evidence.message)) - guard)
            reworded = [w for w in reworded if w not in named]
            if reworded:
                why.append("its default text says " + ", ".join(reworded[:4]) + " too")
        count = len(shared) + len(named) + len(reworded)
        # Of two functions the message names alike, the one it names more fully
        # (`DateField` before `DateTimeField` for `Enter a date`): a tie-break only.
        fully = len(named) / len(set(stems(function))) if named else 0.0
        return min(W.guard_words_cap, W.guard_word * count) + W.named_share * fully

    def _pinned(self, stored: StoredSite) -> tuple[float, str] | None:
        site = stored.site
        frames = self.evidence.frames
        for depth, frame in enumerate(reversed(frames)):
            if at_lines(frame, stored.file, site.line, site.end_line):
                bonus = W.innermost_frame if depth == 0 else W.outer_frame
                if depth > 0 and site.kind is SiteKind.HELPER:
                    bonus = W.helper_frame
                where = "the innermost frame" if depth == 0 else "a traceback frame"
                return bonus, f"{where} is at {stored.file}:{frame.line}"
        hint = self.evidence.hint_file
        if hint is not None and stored.file.endswith(_basename(hint)):
            line = self.evidence.hint_line
            if line is not None and site.line <= line <= site.end_line:
                return W.log_line, f"the log line names {_basename(hint)}:{line}"
            return W.log_file, f"the log line names {_basename(hint)}"
        return None

    def _exception_agreement(self, stored: StoredSite, why: list[str]) -> float:
        if self.exception is None:
            level = stored.site.level
            if self.evidence.level and level and self.evidence.level.lower().startswith(level[:4]):
                why.append(f"logged at {level}")
                return W.log_level
            return 0.0
        info = stored.exception
        if not _class_written(stored):
            return 0.0
        name = info.name if info else (stored.site.exception or "").rsplit(".", 1)[-1]
        if printed_name(name) == self.exception:
            if self.qualified(stored) and "." in (self.evidence.exception or ""):
                why.append(f"exception class {info.qualname if info else name}")
                return W.qualified_class
            why.append(f"exception class {name}")
            return W.same_class
        if info is not None and any(b.rsplit(".", 1)[-1] == self.exception for b in info.bases):
            why.append(f"{self.exception} is a base of {name}")
            return W.base_class
        return W.other_class


def _class_written(stored: StoredSite) -> bool:
    """The raise names its class (`raise ValueError(...)`), not an object made elsewhere
    (`raise err`, `raise self._error(...)`)."""
    info = stored.exception
    name = info.name if info else (stored.site.exception or "").rsplit(".", 1)[-1]
    return name.lstrip("_")[:1].isupper()


def _prints_nothing(stored: StoredSite) -> bool:
    """The raise gives its class no text, so `str()` of it is empty: `raise Exit()`,
    `raise Disconnect(code=1006)` (keywords are not the exception's `args`), with no text the
    class composes. Not a re-raise, nor an object made elsewhere (`raise self.error(...)`)."""
    site = stored.site
    return (
        site.kind is SiteKind.RAISE
        and site.message is None
        and _class_written(stored)
        and all(arg.name is not None for arg in site.args)
        and not stored.shown
    )


def _spans(template: MessageTemplate | None, message: str) -> bool:
    """The template's text is all in the message, in order, from its start to its end."""
    if template is None or not template.literal_length or not message:
        return False
    found = compile_template(template).match(message)
    return found is not None and found.whole and found.literal >= template.literal_length // 2


def _basename(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _variant(
    variants: Sequence[Variant], matched: TemplateMatch, site_file: str
) -> VariantMatch | None:
    """The reason whose text the placeholders' values hold, best explained first."""
    if not variants:
        return None
    held = " ".join(matched.values.values())
    best: tuple[float, Variant] | None = None
    for variant in variants:
        found = compile_template(variant.reason).match(held)
        if found is not None and (best is None or found.score > best[0]):
            best = (found.score, variant)
    if best is None:
        return None
    chosen = best[1]
    return VariantMatch(
        reason=chosen.reason.text,
        file=chosen.file or site_file,
        line=chosen.line,
        function=chosen.function,
        conditions=[c.statement for c in chosen.conditions],
    )
