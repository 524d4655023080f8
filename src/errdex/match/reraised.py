"""A caught error's text raised again under another class: `raise Wrapper(str(err))`.

`except BadSignature as e: sig_error = e` ... `raise BadTimeSignature(str(sig_error))`: the
user sees `BadTimeSignature: Signature b'...' does not match`, the text written at the raise
of `BadSignature` and the class of the raise that passed it on. The paste's text matches the
first raise, whose class it does not name; the second is matched by its class alone (its
message is a value). Read together, the second explains both: the text as well as the first
does, the class better. Only within one release (the caught error is the package's own),
and only when the passing raise's message is nothing but the caught error, named by an
`except ... as` around it or by an error's name (`err`, `sig_error`); with a clause, the
first raise's class must be one it catches.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from errdex.facts import ConditionKind, Placeholder
from errdex.lazy_re import lazy_compile
from errdex.match.readings import printed_name
from errdex.match.results import Match
from errdex.match.weights import WEIGHTS as W

__all__ = ["quoted_key_first", "reraised_texts"]

# `except (KeyError, pkg.BadData) as err`
_CLAUSE = lazy_compile(r"^except\s+\(?(?P<classes>[^()]+?)\)?\s+as\s+(?P<name>\w+)$")
# Names that hold an error by convention: `e`, `exc`, `err`, `error`, `sig_error`.
_ERROR_NAME = lazy_compile(r"^(?:e|ex|exc|err|error|exception|\w+_(?:error|err|exc|exception))$")
# What of the error a message takes: itself (`str(err)` reads as `err`), or its text.
_ITS_TEXT = lazy_compile(r"^(?P<name>\w+)(?:\.(?:message|msg|args\[0\]))?$")
_ANY = frozenset({"Exception", "BaseException"})
_RAISES = frozenset({"raise", "helper"})  # sites whose error a `try` may catch


def reraised_texts(best: dict[str, Match], near: dict[str, Match]) -> None:
    """Each raise matched by its class alone whose message is a caught error, read with the
    text match of that error's raise in the same release: scored as that match, with its
    own class's agreement in place of the other's (a `best` answer, `near` ones moved)."""
    texts = [
        m
        for m in best.values()
        if not m.guess and m.site is not None and m.whole and m.kind in _RAISES
    ]
    if not texts:
        return
    for pool in (best, near):
        for key, match in list(pool.items()):
            if not match.guess or match.site is None:
                continue
            caught = _caught(match)
            if caught is None:
                continue
            inner = _inner_match(match, texts, caught)
            if inner is None:
                continue
            pool.pop(key)
            best[key] = _passed_on(match, inner)


def quoted_key_first(best: dict[str, Match]) -> None:
    """A message that is one quoted value under another class (`ValueError: 'nope'`) is
    the text of a caught `KeyError` passed on (`str()` of one is its key quoted): the raises
    of a value caught as a `KeyError` come before those of any other value."""
    for key, match in best.items():
        if match.guess and match.site is not None and "KeyError" in (_caught(match) or ()):
            best[key] = msgspec.structs.replace(
                match,
                score=round(match.score + W.quoted_key, 4),
                why=[*match.why, "the quoted value is a caught KeyError's text, passed on"],
            )


def _caught(match: Match) -> frozenset[str] | None:
    """The classes the raise's message may be a caught error of (empty: any of its
    class's bases), or None when its message is not a caught error alone."""
    assert match.site is not None
    site = match.site.site
    message = site.message
    if message is None or len(message.parts) != 1:
        return None
    only = message.parts[0]
    if not isinstance(only, Placeholder) or only.conversion not in (None, "s"):
        return None
    text = _ITS_TEXT.match(only.expr)
    if text is None:
        return None
    name = text.group("name")
    for condition in site.conditions:
        if condition.kind is not ConditionKind.EXCEPT:
            continue
        clause = _CLAUSE.match(condition.test.strip())
        if clause is not None and clause.group("name") == name:
            classes = clause.group("classes").split(",")
            return frozenset(printed_name(c.strip()) for c in classes if c.strip())
    return frozenset() if _ERROR_NAME.match(name) else None


def _inner_match(passing: Match, texts: Iterable[Match], caught: frozenset[str]) -> Match | None:
    """The best text match of the same release whose class the passing raise may have
    caught: one of the clause's classes (or a subclass), else a base of its own class."""
    assert passing.site is not None
    own = passing.site.exception
    bases = {printed_name(b) for b in own.bases} if own is not None else set()
    found: Match | None = None
    for match in texts:
        if (match.project, match.version) != (passing.project, passing.version):
            continue
        info = match.site.exception if match.site is not None else None
        if info is None or printed_name(info.name) == printed_name(passing.exception or ""):
            continue
        lineage = {printed_name(info.name), *(printed_name(b) for b in info.bases)}
        if caught:
            if not (caught & _ANY or caught & lineage):
                continue
        elif printed_name(info.name) not in bases:
            continue
        if found is None or match.score > found.score:
            found = match
    return found


def _passed_on(passing: Match, inner: Match) -> Match:
    """The passing raise scored as the inner text's match, with its class agreeing where
    the inner one's did not (the pasted class is a base of the inner class, or another)."""
    assert inner.site is not None and inner.site.exception is not None
    pasted = printed_name(passing.exception or "")
    bases = {printed_name(b) for b in inner.site.exception.bases}
    inner_class = W.base_class if pasted in bases else W.other_class
    place = f"{inner.file}:{inner.line}"
    return msgspec.structs.replace(
        passing,
        score=round(inner.score - inner_class + W.same_class, 4),
        values=inner.values,
        shown=inner.shown if inner.shown is not None else inner.message,
        why=[
            *inner.why[:1],
            f"its message is the error caught from {place}, raised again as {passing.exception}",
            *(w for w in passing.why if w.startswith("exception class")),
        ],
        guess=False,
        whole=True,
        confident=inner.confident,
    )
