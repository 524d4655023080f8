"""A message that holds another site's text: the line a wrapper printed around an error.

`log.error("error: %s:%d: %s", path, lineno, error)` prints the text of the error it caught,
and `parser.error(str(err))` prints `prog: error: ` before the caught exception's. The
inner text matches the site that raised it, inside a longer line (a partial match); the
line itself is the wrapper's: its template spans the whole line, and one of its values is
the inner site's text. The wrapper is looked for where the inner site is (the same release),
by the words the inner text leaves unexplained, and its match counts the literal text of
both templates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from errdex.facts import MessageTemplate
from errdex.lazy_re import lazy_compile
from errdex.linked_facts import ShownText
from errdex.match.pattern import TemplateMatch, compile_template, literal_runs, text_score
from errdex.match.results import Match
from errdex.store.base import Store, StoredSite

__all__ = ["Inner", "Wrapping", "inner_texts", "wrapped_match", "wrapper_candidates"]

_MAX_INNER = 3  # partial matches tried as the inner text, best first
_MAX_WRAPPERS = 100  # wrapper candidates per inner text (a common word: `error`)
_MIN_OWN_LITERAL = 3  # a wrapper writes at least this much text of its own (`error: `)
_WORD = lazy_compile(r"\w+")


class Inner(msgspec.Struct, frozen=True):
    """The text of a site matched inside a longer line, and where that site is."""

    texts: tuple[MessageTemplate, ...]  # its template and the text it was shown by
    project: str
    version: str
    place: str  # `file:line`, for the reason a wrapper gives
    id: str
    words: frozenset[str] = frozenset()  # of its text, literal and values, lower-cased


def inner_texts(matches: Iterable[Match], message: str) -> list[Inner]:
    """The best partial matches of `message`: the texts a wrapper may have printed."""
    found: list[Inner] = []
    for match in sorted(matches, key=lambda m: -m.score):
        if len(found) >= _MAX_INNER:
            break
        if not match.partial or match.guess or match.site is None:
            continue
        site = match.site
        texts = [site.site.message] if site.site.message is not None else []
        texts += [f.text for f in site.shown if f.text.text == match.shown]
        if not any(compile_template(t).match(message) for t in texts):
            continue  # a partial match of another error of the paste
        held = [run for t in texts for run in literal_runs(t.text)] + list(match.values.values())
        words = frozenset(w.lower() for text in held for w in _WORD.findall(text))
        place = f"{site.file}:{site.site.line}"
        found.append(Inner(tuple(texts), match.project, match.version, place, match.id, words))
    return found


def wrapper_candidates(store: Store, message: str, inner: Sequence[Inner]) -> list[StoredSite]:
    """Sites of each inner text's release whose texts hold the words it leaves unexplained."""
    found: list[StoredSite] = []
    for item in inner:
        # The words the inner text leaves: the wrapper's own (its values' words are the
        # inner's too: `Input path: babel does not exist` leaves `error`, not `babel`).
        terms = [
            word
            for run in literal_runs(message)
            for word in run.split()
            if len(word) >= 3 and word.lower() not in item.words
        ]
        if terms:
            found += store.search_candidates(
                list(dict.fromkeys(terms)), item.project, item.version, limit=_MAX_WRAPPERS
            )
    return found


class Wrapping(msgspec.Struct, frozen=True):
    """A reading of a line as a site's text around an inner text."""

    match: TemplateMatch  # counting both templates' literal text
    form: tuple[TemplateMatch, ShownText] | None  # the shown text read (None: the template)
    reason: str


def wrapped_match(
    stored: StoredSite, message: str, inner: Sequence[Inner], above: TemplateMatch | None
) -> Wrapping | None:
    """The best reading of `message` as one of the site's texts whose value is an inner
    text, when it explains more than the reading `above` (the site's own, if any)."""
    if not inner:
        return None
    best: tuple[TemplateMatch, ShownText | None, str] | None = None
    texts: list[tuple[MessageTemplate, ShownText | None]] = []
    if stored.site.message is not None:
        texts.append((stored.site.message, None))
    texts += [(f.text, f) for f in stored.shown if f.caller is None]
    total = len("".join(message.split()))
    for template, form in texts:
        outer = compile_template(template)
        if outer.literal_chars < _MIN_OWN_LITERAL:
            continue
        found = outer.match(message)
        if found is None or not found.whole:
            continue
        for expr, value in found.values.items():
            for item in inner:
                if item.id == stored.id:
                    continue
                held = _held(item, value)
                if held is None:
                    continue
                literal = found.literal + held.literal
                joined = TemplateMatch(
                    round(text_score(literal, total - literal, total, mode="full"), 4),
                    found.values,
                    round(literal / max(total, 1), 4),
                    literal=literal,
                    whole=True,
                )
                if best is None or joined.score > best[0].score:
                    best = (joined, form, f"its {{{expr}}} holds the text raised at {item.place}")
    if best is None or (above is not None and above.score >= best[0].score):
        return None
    joined, form, reason = best
    return Wrapping(joined, (joined, form) if form is not None else None, reason)


def _held(item: Inner, value: str) -> TemplateMatch | None:
    """The inner text read as the whole of a wrapper's value."""
    for template in item.texts:
        found = compile_template(template).match(value)
        if found is not None and found.whole:
            return found
    return None
