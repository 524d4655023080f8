"""Reading a pasted message against one of a site's texts (its template or a form a user
sees of it): whole, cut short, or as a piece from inside it, remembered per lookup."""

from __future__ import annotations

import functools

import msgspec

from errdex.facts import MessageTemplate
from errdex.linked_facts import TRANSLATED, ShownText
from errdex.match.evidence import ErrorEvidence
from errdex.match.pattern import TemplateMatch, compile_template
from errdex.match.weights import WEIGHTS as W
from errdex.store.base import StoredSite
from errdex.store.rows import term_tokens

__all__ = ["Readings", "best_form", "read_message"]

# A text's reading of a message: (template, message, truncated, cut, piece) → the match.
Readings = dict[tuple[MessageTemplate, str, bool, bool, bool], TemplateMatch | None]


def read_message(
    template: MessageTemplate | None,
    evidence: ErrorEvidence,
    *,
    cut: bool,
    piece: bool = True,
    memo: Readings | None = None,
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
    """`read_message`, worked out."""
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


def best_form(
    stored: StoredSite,
    evidence: ErrorEvidence,
    matched: TemplateMatch | None,
    *,
    cut: bool,
    memo: Readings | None = None,
) -> tuple[tuple[TemplateMatch, ShownText] | None, bool]:
    """The text a user sees of the site (`IndexedSite.shown`) that explains the paste
    better than the template does, and whether it did so with the whole line: a printed
    form's `Error: ` is what the parser took for a class name."""
    best: tuple[TemplateMatch, ShownText] | None = None
    whole_line = False
    head = f"{evidence.exception}:" if evidence.exception else None
    pasted: frozenset[str] | None = None
    for form in stored.shown:
        if form.how.startswith(TRANSLATED):
            # A site holds one form per language shipped: a language whose longest written
            # word the paste lacks is not the one pasted, and is not read.
            pasted = _words(evidence.message) if pasted is None else pasted
            if _longest_word(form.text.literal_text) not in pasted:
                continue
        first = form.text.parts[0] if form.text.parts else None
        line = None
        if head is not None and isinstance(first, str) and first.startswith(head):
            line = f"{evidence.exception}: {evidence.message}"
        for text, whole in ((evidence.message, False), (line, True)):
            if text is None:
                continue
            # (`Class: message` whole is no piece of a text: the message alone may be.)
            found = read_message(
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


@functools.lru_cache(maxsize=4096)
def _longest_word(text: str) -> str:
    """The longest written word of a text, as the index folds it ('' for none)."""
    return max(term_tokens(text), key=len, default="")


def _words(message: str) -> frozenset[str]:
    return frozenset(term_tokens(message[:20_000])) | {""}
