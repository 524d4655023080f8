"""When the docstring of the function the user calls says when it raises: not to call it so.

A public function's docstring often states the rule its raise enforces, in the user's terms:
SQLAlchemy's `CursorResult.prefetch_cols` says "Raises :class:`~sqlalchemy.exc.
InvalidRequestError` if the executed statement is not a compiled expression construct or is
not an insert() or update() construct", while its conditions read internal state
(`self.context.isinsert`) no rule puts in the user's words. The way out is that condition's
opposite; the page quotes the condition whole rather than negating prose, as the authors
wrote it, said of what it speaks of: of the object the method is called on ("Call
`CursorResult.prefetch_cols` only where the reason its docstring gives for
`InvalidRequestError` does not hold of the `CursorResult` it is called on: it raises it “if
the executed statement is not ...”"), or of the caller's argument it names ("Give
`as_interface` an argument `obj` for which ... “if `obj` does not meet the interface
criteria”"). The why then quotes no docstring sentence that holds the condition again
(`why.why_quotes`' `quoted`).

Only where all of these hold, as a wrong way out is worse than none:
- the site is a `raise` in the function itself (no nested function), a public function or
  method (or a constructor) of a class the package hands its users (`users_call`), the
  package calls it nowhere (`IndexedSite.callers`, and `calls`, which counts the calls
  resolved anywhere: vllm calls `Platform.get_mla_prefill_backend_cls` through
  `current_platform`) and it is no default subclasses replace (`IndexedSite.overrides`):
  the user's own call;
- its own docstring names the exception raised (or a base of it) in a `Raises` entry, a
  `:raises X:` field, or a sentence "Raises X if/when ...", and the condition is an
  `if`/`when` clause: of an entry its first sentence (the next say what else to do), of a
  paragraph the first sentence naming this exception (one naming another is of another
  raise); a Sphinx role (":class:`~sqlalchemy.sql.Select`") is written as code by its
  target's last name, and a condition holding a role not so read says nothing;
- the condition shares a word with the message or the check's own conditions (the entry
  is of this raise, not another of the same exception);
- the condition is no failure of the world (a timeout, a read that failed, a service gone):
  nothing the user's call avoids.

Offered only when no other way out is (`solutions.py`): a rule in the code's terms says more.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts, function_span, lines_of
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.state_gated import users_call
from errdex.explain.why_texts import RAISES_SECTIONS, docstring_units, raised_names
from errdex.facts import SiteKind

__all__ = ["documented_raise_solution"]

# "Raises :class:`~sqlalchemy.exc.InvalidRequestError` if ...", "Raise `ValueError` when ..."
_INLINE = re.compile(
    r"\bRaises?\s+(?:an?\s+)?(?::[\w:]+:)?`*~?([\w.]+)`*\s+((?:if|when(?:ever)?)\s.+)$"
)
_RST_CODE = re.compile(r"``([^`]+)``")  # reST's inline code, written as the page writes code
# a Sphinx role (":class:`~probe.Select`", ":meth:`.execute`"): its target's last part as code
_RST_ROLE = re.compile(r":[\w:]+:`~?\.?([\w.]+)(?:\(\))?`")
_ANY_ROLE = re.compile(r":[\w:]+:`")  # one the rewrite did not read: the page says nothing
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CONDITION = re.compile(r"^(?:if|when(?:ever)?)\s", re.I)
# what no call avoids: the world failing under it
_WORLD = re.compile(
    r"\b(?:fail(?:s|ed|ures?)?|times?\s+out|timed\s+out|timeouts?|expire[sd]?|unavailable"
    r"|unreachable|interrupted|crash(?:es|ed)?|lost)\b",
    re.I,
)
_WORD = re.compile(r"[A-Za-z]{4,}")
# words any text of a check shares: no sign the entry is of this raise
_COMMON = frozenset(
    "this that with from when where which what than then else return value values error "
    "exception raise raises raised none true false given must should only also self".split()
)
_MAX_CONDITION = 300


def documented_raise_solution(facts: Facts) -> Solution | None:
    """ "Call `f` only where this does not hold" for a documented raise; else None."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or site.exception is None:
        return None
    owner, _, name = site.function.rpartition(".")
    # no private part (`Outer._Inner.method`), no nested function, and of the dunders only
    # the constructor: the others are Python's to call
    if not public_name(site.function) or (name.startswith("__") and name != "__init__"):
        return None
    stored = facts.stored
    if stored.callers or stored.calls or stored.overrides is not None or not users_call(facts):
        return None  # the package calls it, or it is a default its subclasses replace
    condition = _documented_condition(facts, name)
    if condition is None or _WORLD.search(condition) or not _of_this_check(condition, facts):
        return None
    raised = site.exception.rpartition(".")[2]
    reason = f"the reason its docstring gives for {code(raised)}"
    said = f"it raises it “{condition}”"
    param = _named_parameter(condition, facts.read.params)
    if param is not None:
        # of the caller's input: the argument to give another value
        called = owner if name == "__init__" else site.function
        text = f"Give {code(called)} an argument {code(param)} for which {reason} does not hold"
    elif name == "__init__":
        text = f"Make a {code(owner)} only where {reason} does not hold"
    elif owner and owner == site.class_name:
        # of the object's state: what the object the method is called on holds
        text = (
            f"Call {code(site.function)} only where {reason} does not hold of the "
            f"{code(owner)} it is called on"
        )
    else:
        text = f"Call {code(site.function)} only where {reason} does not hold"
    return Solution(text=f"{text}: {said}.", kind="input")


def _named_parameter(condition: str, params: tuple[str, ...]) -> str | None:
    """The first of the function's parameters the condition names (`obj`, "the name"):
    the condition is then of the caller's input, not of the object's state."""
    found = [
        (m.start(), p)
        for p in params
        if not p.startswith("_") and (m := re.search(rf"(?<![\w.]){re.escape(p)}\b", condition))
    ]
    return min(found)[1] if found else None


def _documented_condition(facts: Facts, name: str) -> str | None:
    """The `if`/`when` clause the function's own docstring gives for raising the site's
    exception (or a base of it), without its closing stop; None when there is none."""
    site = facts.stored.site
    span = function_span(facts.source_text, name, site.line)
    if span is None or facts.source_text is None:
        return None
    raised = raised_names(facts, (site.exception or "").rpartition(".")[2])
    for unit in docstring_units(lines_of(facts.source_text), span[0]):
        if unit.section in RAISES_SECTIONS:
            if unit.name is None or unit.name.rpartition(".")[2] not in raised:
                continue
            # the entry's first sentence: the next ones say what else to do, not when
            text = _SENTENCE_END.split(unit.text.strip(), maxsplit=1)[0]
        elif unit.section is None:
            # the first sentence naming this exception: one naming another is of another raise
            inline = next(
                (
                    m
                    for s in _SENTENCE_END.split(unit.text)
                    if (m := _INLINE.search(s)) and m.group(1).rpartition(".")[2] in raised
                ),
                None,
            )
            if inline is None:
                continue
            text = inline.group(2)
        else:
            continue
        text = _RST_CODE.sub(r"`\1`", text.strip().rstrip(".").strip())
        text = _RST_ROLE.sub(lambda m: code(m.group(1).rpartition(".")[2]), text)
        if _CONDITION.match(text) and len(text) <= _MAX_CONDITION and not _ANY_ROLE.search(text):
            return text[0].lower() + text[1:]
    return None


def _of_this_check(condition: str, facts: Facts) -> bool:
    """Whether the condition shares a word with the message or the check's conditions."""
    site = facts.stored.site
    texts = [site.message.text if site.message is not None else ""]
    texts += [c.text for c in facts.held]
    theirs = {w.lower() for t in texts for w in _WORD.findall(t.replace("_", " "))}
    ours = {w.lower() for w in _WORD.findall(condition.replace("_", " "))}
    return bool((ours & theirs) - _COMMON)
