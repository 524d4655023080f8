"""From pasted text to ranked sites: candidates from the index, verified, scored, explained.

Candidates come from three places: the full-text index (words of the message), traceback
frames (a frame at an indexed file and a site's line pins it), and log or warning hints
(`[file.py:123]`). Each candidate's template is then matched against the message; the score
adds what else agrees (exception class, frames, hints, a reason variant) and every piece of
agreement is named in `why`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import msgspec

from errdex.facts import BUILTIN_EXCEPTIONS, MessageTemplate, SiteKind, Variant
from errdex.linked_facts import ShownText
from errdex.match.across_projects import order_tied_projects
from errdex.match.clues import printed_clues
from errdex.match.evidence import ErrorEvidence, Evidence, at_lines
from errdex.match.helper_raise import raise_inside_helpers
from errdex.match.lent_by_tests import demote_lent_by_tests, lent_by_tests
from errdex.match.logged import logged_by, project_named, spanning
from errdex.match.one_result import with_same_text
from errdex.match.pattern import TemplateMatch, compile_template, literal_runs
from errdex.match.readings import OLD_NAMES, printed_name, readings
from errdex.match.reraised import reraised_texts
from errdex.match.results import LookupResult, Match, VariantMatch
from errdex.match.versions import settle_versions
from errdex.match.weights import WEIGHTS as W
from errdex.match.words import shows_none_of, stems
from errdex.match.wrapped import Inner, inner_texts, wrapped_match, wrapper_candidates
from errdex.store.base import Store, StoredSite

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_MAX_TERMS = 40
_FTS_LIMIT = 60


def frame_paths(path: str) -> list[str]:
    """Relative paths a frame's path may be indexed under: its suffixes, longest last."""
    parts = [p for p in path.replace("\\", "/").split("/") if p and p not in (".", "~")]
    parts = parts[-8:]
    return ["/".join(parts[i:]) for i in range(len(parts) - 1, -1, -1)]


_VALUE_START = re.compile(r"""['"<({\[=]""")


def _before_values(message: str) -> str:
    """The message up to where a value seems to start: a quote, a bracket, `=` or `<`."""
    found = _VALUE_START.search(message)
    return message[: found.start()] if found else message


def search_terms(message: str) -> list[str]:
    """Words of a message worth sending to full-text search, most telling first."""
    words: list[str] = []
    for run in literal_runs(message) or [message]:
        words.extend(_WORD.findall(run))
    unique = list(dict.fromkeys(words))
    unique.sort(key=len, reverse=True)  # long words are rarer: keep them if we must cut
    return unique[:_MAX_TERMS]


class _Scorer:
    """Scores candidate sites against one piece of evidence."""

    def __init__(
        self,
        evidence: ErrorEvidence,
        weight: float,
        *,
        cut: bool = False,
        inner: Sequence[Inner] = (),
        logged: bool = False,
        memo: _Readings | None = None,
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
        self.memo: _Readings = {} if memo is None else memo

    def score(self, stored: StoredSite) -> Match | None:
        site = stored.site
        why: list[str] = []
        matched = _match(site.message, self.evidence, cut=self.cut, memo=self.memo)
        if matched is None and self.logged:
            matched = spanning(site.message, self.evidence.message)
        form, whole_line = _best_form(stored, self.evidence, matched, cut=self.cut, memo=self.memo)
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
            if shows_none_of(site.message, self.evidence.message):
                # The site writes a text of its own, and the paste shows another.
                total += W.other_text
            elif _spans(site.message, self.evidence.message):
                total += W.short_text
                why.append("its text spans the message, though little of it is written out")
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
            guess=by_class and not pinned,
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
        return literal < 6 or (info is not None and info.defined_in is not None)

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
        return min(W.guard_words_cap, W.guard_word * (len(shared) + len(named)))

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


def _spans(template: MessageTemplate | None, message: str) -> bool:
    """The template's text is all in the message, in order, from its start to its end."""
    if template is None or not template.literal_length or not message:
        return False
    found = compile_template(template).match(message)
    return found is not None and found.whole and found.literal >= template.literal_length // 2


def _basename(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


# A text's reading of a message: (template, message, truncated, cut, piece) → the match.
_Readings = dict[tuple[MessageTemplate, str, bool, bool, bool], TemplateMatch | None]


def _match(
    template: MessageTemplate | None,
    evidence: ErrorEvidence,
    *,
    cut: bool,
    piece: bool = True,
    memo: _Readings | None = None,
) -> TemplateMatch | None:
    """Match the message against the template; with `cut`, also as a prefix of it (titles
    and copies get cut mid-word without a marker), scored a little lower; with `piece`,
    else as a piece from inside it (`No scheme supplied`), scored lower still. `memo`
    keeps the readings made, for the same text met again."""
    if template is None or not template.literal_length or not evidence.message:
        return None
    if memo is None:
        return _read(template, evidence, cut=cut, piece=piece)
    key = (template, evidence.message, evidence.truncated, cut, piece)
    if key not in memo:
        memo[key] = _read(template, evidence, cut=cut, piece=piece)
    return memo[key]


def _read(
    template: MessageTemplate, evidence: ErrorEvidence, *, cut: bool, piece: bool
) -> TemplateMatch | None:
    """`_match`, worked out."""
    compiled = compile_template(template)
    found = compiled.match(evidence.message, truncated=evidence.truncated)
    if found is None and cut and not evidence.truncated:
        prefix = compiled.match(evidence.message, truncated=True)
        if prefix is not None:
            found = msgspec.structs.replace(prefix, score=prefix.score * W.cut_short)
    if found is None and piece:
        found = compiled.fragment(evidence.message)
    if found is None:
        return None
    if found.covered < W.min_covered_any and not (
        found.whole and found.literal >= W.min_literal_long_values
    ):
        return None
    return found


def _best_form(
    stored: StoredSite,
    evidence: ErrorEvidence,
    matched: TemplateMatch | None,
    *,
    cut: bool,
    memo: _Readings | None = None,
) -> tuple[tuple[TemplateMatch, ShownText] | None, bool]:
    """The text a user sees of the site (`IndexedSite.shown`) that explains the paste
    better than the template does, and whether it did so with the whole line: a printed
    form's `Error: ` is what the parser took for a class name."""
    best: tuple[TemplateMatch, ShownText] | None = None
    whole_line = False
    head = f"{evidence.exception}:" if evidence.exception else None
    for form in stored.shown:
        first = form.text.parts[0] if form.text.parts else None
        line = None
        if head is not None and isinstance(first, str) and first.startswith(head):
            line = f"{evidence.exception}: {evidence.message}"
        for text, whole in ((evidence.message, False), (line, True)):
            if text is None:
                continue
            # (`Class: message` whole is no piece of a text: the message alone may be.)
            found = _match(
                form.text,
                msgspec.structs.replace(evidence, message=text),
                cut=cut,
                piece=not whole,
                memo=memo,
            )
            if found is not None and form.caller is not None:
                found = msgspec.structs.replace(found, score=found.score * W.caller_form)
            floor = best[0].score if best is not None else (matched.score if matched else 0.0)
            if found is not None and found.score > floor:
                best, whole_line = (found, form), whole
    return best, whole_line


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


def candidates(
    store: Store,
    evidence: ErrorEvidence,
    project: str | None,
    version: str | None,
    *,
    wide: bool = False,
    projects: Sequence[str] = (),
) -> list[StoredSite]:
    """Sites worth scoring: by the message's words, and at the frames' and hints' places.

    The first, narrow round asks for texts holding all of the message's three rarest words
    (few, and nearly always the answer); the `wide` round, for texts holding any of them.
    `projects` are the store's project names, where a qualified class name may point.
    """
    terms = search_terms(evidence.message)
    if wide:
        return store.search_candidates(terms, project, version, limit=_FTS_LIMIT) if terms else []
    found: list[StoredSite] = []
    if terms:
        narrow = store.search_candidates(terms, project, version, limit=_FTS_LIMIT, rarest=3)
        head = search_terms(_before_values(evidence.message))
        if not narrow and head and head != terms:
            # The rarest words may be a value's (`Attribute(name='y', converter=None, ...)`)
            # that no site's text holds: the words before the first value are the message's.
            narrow = store.search_candidates(head, project, version, limit=_FTS_LIMIT, rarest=3)
        found.extend(narrow)
    pasted = evidence.exception or ""
    short = pasted.rsplit(".", 1)[-1]
    qualified = "." in pasted and not pasted.startswith("builtins.")
    if short and (qualified or short not in BUILTIN_EXCEPTIONS or not evidence.message.strip()):
        # The project's own classes are few and telling; a bare builtin class is neither.
        # A class named with its package (`requests.exceptions.SSLError`) is looked for in
        # that project first: other projects may raise many classes of that name.
        home = project_named(projects, pasted) if qualified and project is None else None
        if home is not None:
            found.extend(store.sites_raising(short, home, version, limit=40))
        for name in (short, *OLD_NAMES.get(short, ())):
            found.extend(store.sites_raising(name, project, version, limit=40))
            if not evidence.message.strip():
                # The class alone: its raises without a message, where the newest texts
                # of a common class (`NotImplementedError`) all have one.
                found.extend(store.sites_raising(name, project, version, limit=40, bare=True))
    for frame in evidence.frames[-12:]:
        if frame.line is not None:
            found.extend(
                store.sites_in_files(frame_paths(frame.path), frame.line, project, version)
            )
    if evidence.hint_file and evidence.hint_line:
        found.extend(
            store.sites_in_files(
                frame_paths(evidence.hint_file), evidence.hint_line, project, version
            )
        )
    return found


def rank(
    store: Store,
    evidence: Evidence,
    *,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
    installed: Mapping[str, str] | None = None,
) -> LookupResult:
    """Score every candidate against every error in the paste; keep the best per error id.

    `installed` maps projects to the release installed where the paste came from, when
    the caller knows it (a hook in the user's process): evidence of the release, used
    when the paste itself does not tell.
    """
    best: dict[str, Match] = {}
    near: dict[str, Match] = {}
    items = [(i, r) for i, e in enumerate(evidence.errors[:4]) for r in readings(e)]

    read: set[int] = set()  # the errors a whole reading of their message explains
    memo: _Readings = {}
    # The sites each reading has been scored against, without inner texts: the same row met
    # again (a text's hits and its class's raises, the narrow and the wide round) scores the
    # same, and an equal score changes nothing. The records are kept: their ids stay theirs.
    scored: dict[tuple[int, int, bool, bool], dict[int, StoredSite]] = {}

    def score(
        index: int,
        item: ErrorEvidence,
        sites: list[StoredSite],
        cut: bool,
        inner: Sequence[Inner] = (),
        logged: bool = False,
    ) -> None:
        scorer = _Scorer(
            item, W.error_weight(index), cut=cut, inner=inner, logged=logged, memo=memo
        )
        done = scored.setdefault((index, id(item), cut, logged), {}) if not inner else {}
        for stored in sites:
            if id(stored) in done:
                continue
            done[id(stored)] = stored
            match = scorer.score(stored)
            if match is None:
                continue
            # A raise matched by its class alone read nothing of the message; a template
            # found inside it left some unread (the rest may be a longer template, cut).
            if match.confident and not (match.piece or match.guess or match.partial):
                read.add(index)
            target = best if match.confident else near
            previous = target.get(match.id)
            if previous is None or _better(match, previous):
                target[match.id] = match

    # Read once per lookup, and only when a pasted class is named with its package.
    qualified = project is None and any("." in (item.exception or "") for _, item in items)
    projects = [p.name for p in store.projects()] if qualified else []
    rounds = [
        (i, item, candidates(store, item, project, version, projects=projects)) for i, item in items
    ]
    for index, item, sites in rounds:
        score(index, item, sites, cut=False)
    if not any(m.score >= W.strong for m in best.values()):
        wide = [
            (i, item, candidates(store, item, project, version, wide=True)) for i, item in items
        ]
        for index, item, sites in wide:
            score(index, item, sites, cut=False)
        rounds += wide
    # Messages no whole reading explains may have been cut short (without a marker).
    for index, item, sites in rounds:
        if index not in read:
            score(index, item, sites, cut=True)
    # A line printed around another site's text: the wrapper printed it (`wrapped.py`).
    for index, item in items:
        if inner := inner_texts([*best.values(), *near.values()], item.message):
            score(index, item, wrapper_candidates(store, item.message, inner), False, inner)
    # Too few words to search for (`WARNING:lark: * <as : >`): the logger's own log calls.
    for index, item in items if not best and not near else ():
        score(index, item, logged_by(store, item, project, version), cut=False, logged=True)
    for key in best:
        near.pop(key, None)
    _promote_text_matches(best, near, bare=not any(item.message.strip() for _, item in items))
    reraised_texts(best, near)  # `raise Wrapper(str(err))`: a caught error's text passed on
    _demote_guesses(best)
    demote_lent_by_tests(best)  # a test's call lends its text to a library raise
    frames = [frame for item in evidence.errors[:4] for frame in item.places()]
    frames += evidence.stray_frames
    pasted = evidence.errors[0].exception if evidence.errors else None
    return LookupResult(
        # Settling drops old versions of errors also matched in a newer one: take a few more
        # first, so that `limit` answers remain.
        matches=settle_versions(
            store,
            with_same_text(
                raise_inside_helpers(
                    store,
                    order_tied_projects(_ordered(best.values()), pasted, say=False),
                    limit * 3,
                ),
                limit * 3,
            ),
            frames,
            version=version,
            exception=pasted,
            installed=installed,
        )[:limit],
        nearest=_ordered(near.values())[:limit] if not best else [],
        evidence=evidence,
    )


def _promote_text_matches(best: dict[str, Match], near: dict[str, Match], *, bare: bool) -> None:
    """Count as answers the matches whose template explains part of the message, though too
    little of it to be sure, where they score above the answers matched by class alone
    (`{path}: Error parsing TOML file: {e}` explains more of a paste than any raise of the
    same class whose text is computed), or where nothing else answers.

    `bare`: the paste is a class name without a message, which every raise of that class
    without one prints alike: those raises are its answers (`raised at N sites`).
    """
    if not best:
        # Nothing else answers: a template spanning the whole message is a match, though
        # long values leave it a small share of the text (`File at path {path} does not
        # exist.`); it stays not `confident`.
        for key, match in list(near.items()):
            if (match.whole and not match.guess) or (bare and match.message is None):
                best[key] = near.pop(key)
        return
    guesses = [m.score for m in best.values() if m.guess]
    if not guesses:
        return
    floor = max(guesses)
    for key, match in list(near.items()):
        if not match.guess and not match.piece and match.score > floor:
            best[key] = near.pop(key)


def _demote_guesses(best: dict[str, Match]) -> None:
    """Put the sites matched by their class alone after any of the same class that the
    text or a frame pins, and claim none of them when others of its class are answers too.

    Only the same class: `requests.ConnectionError: ... Max retries exceeded ...` is
    rightly requests' `raise ConnectionError(e)`, matched by its class, though urllib3's
    `MaxRetryError` template explains the text.
    """
    floors: dict[str | None, float] = {}
    for match in best.values():
        if not match.guess:
            floors[match.exception] = max(match.score, floors.get(match.exception, 0.0))
    for key, match in best.items():
        floor = floors.get(match.exception)
        if match.guess and floor is not None and match.score >= floor:
            best[key] = msgspec.structs.replace(match, score=round(floor * W.guess_under_pinned, 4))
    # A guess among other answers of its class is a preference (the words of its guard), not
    # evidence: listed, never claimed.
    per_class = Counter(match.exception for match in best.values())
    for key, match in best.items():
        if match.guess and per_class[match.exception] > 1:
            best[key] = msgspec.structs.replace(match, confident=False)


def _better(new: Match, old: Match) -> bool:
    if new.score != old.score:
        return new.score > old.score
    return False  # same score: keep the first, which came from the newer version


def _ordered(matches: Iterable[Match]) -> list[Match]:
    return sorted(matches, key=lambda m: (-m.score, -m.literal_length()))
