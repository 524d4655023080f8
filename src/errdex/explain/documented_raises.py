"""When the docstring of the function the user calls says when it raises: not to call it so.

A public function's docstring often states the rule its raise enforces, in the user's terms:
SQLAlchemy's `CursorResult.prefetch_cols` says "Raises :class:`~sqlalchemy.exc.
InvalidRequestError` if the executed statement is not a compiled expression construct or is
not an insert() or update() construct", while its conditions read internal state
(`self.context.isinsert`) no rule puts in the user's words. The way out is that condition's
opposite; the page quotes the condition whole rather than negating prose, as the authors
wrote it: "Call `CursorResult.prefetch_cols` only where the reason its docstring gives for
`InvalidRequestError` does not hold: it raises it “if the executed statement is not ...”".

Only where all of these hold, as a wrong way out is worse than none:
- the site is a `raise` in the function itself (no nested function), a public function or
  method (or a constructor) of a class the package hands its users (`users_call`), the
  package calls it nowhere (`IndexedSite.callers`, and `calls`, which counts the calls
  resolved anywhere: vllm calls `Platform.get_mla_prefill_backend_cls` through
  `current_platform`) and it is no default subclasses replace (`IndexedSite.overrides`):
  the user's own call;
- its own docstring names the exception raised (or a base of it) in a `Raises` entry, a
  `:raises X:` field, or a sentence "Raises X if/when ...", and the condition is an
  `if`/`when` clause;
- the condition shares a word with the message or the check's own conditions (the entry
  is of this raise, not another of the same exception);
- the condition is no failure of the world (a timeout, a read that failed, a service gone):
  nothing the user's call avoids.

Offered only when no other way out is (`solutions.py`): a rule in the code's terms says more.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts, function_span, lines_of
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.state_gated import users_call
from errdex.explain.why_texts import docstring_units
from errdex.facts import SiteKind

__all__ = ["documented_raise_solution"]

_RAISES_SECTIONS = frozenset({"raises", "raise", "exception", "exceptions"})
# "Raises :class:`~sqlalchemy.exc.InvalidRequestError` if ...", "Raise `ValueError` when ..."
_INLINE = re.compile(
    r"\bRaises?\s+(?:an?\s+)?(?::[\w:]+:)?`*~?([\w.]+)`*\s+((?:if|when(?:ever)?)\s.+)$"
)
_RST_CODE = re.compile(r"``([^`]+)``")  # reST's inline code, written as the page writes code
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
    if site.kind != SiteKind.RAISE or "<locals>" in site.function or site.exception is None:
        return None
    owner, _, name = site.function.rpartition(".")
    if (name.startswith("_") and name != "__init__") or owner.startswith("_"):
        return None
    stored = facts.stored
    if stored.callers or stored.calls or stored.overrides is not None or not users_call(facts):
        return None  # the package calls it, or it is a default its subclasses replace
    condition = _documented_condition(facts, name)
    if condition is None or _WORLD.search(condition) or not _of_this_check(condition, facts):
        return None
    raised = site.exception.rpartition(".")[2]
    done = f"Make a {code(owner)}" if name == "__init__" else f"Call {code(site.function)}"
    return Solution(
        text=f"{done} only where the reason its docstring gives for {code(raised)} does not "
        f"hold: it raises it “{condition}”.",
        kind="input",
    )


def _documented_condition(facts: Facts, name: str) -> str | None:
    """The `if`/`when` clause the function's own docstring gives for raising the site's
    exception (or a base of it), without its closing stop; None when there is none."""
    site = facts.stored.site
    span = function_span(facts.source_text, name, site.line)
    if span is None or facts.source_text is None:
        return None
    raised = _raised(facts)
    for unit in docstring_units(lines_of(facts.source_text), span[0]):
        if unit.section in _RAISES_SECTIONS:
            if unit.name is None or unit.name.rpartition(".")[2] not in raised:
                continue
            text = unit.text
        elif unit.section is None:
            inline = next(
                (m for s in re.split(r"(?<=[.!?])\s+", unit.text) if (m := _INLINE.search(s))),
                None,
            )
            if inline is None or inline.group(1).rpartition(".")[2] not in raised:
                continue
            text = inline.group(2)
        else:
            continue
        text = _RST_CODE.sub(r"`\1`", text.strip().rstrip(".").strip())
        if _CONDITION.match(text) and len(text) <= _MAX_CONDITION:
            return text[0].lower() + text[1:]
    return None


def _raised(facts: Facts) -> set[str]:
    """The exception's name and its bases' last names (a docstring may name a base)."""
    site = facts.stored.site
    info = facts.stored.exception
    bases = [b.rpartition(".")[2] for b in info.bases] if info is not None else []
    common = {"Exception", "BaseException", "object"}
    return {n for n in [(site.exception or "").rpartition(".")[2], *bases] if n not in common}


def _of_this_check(condition: str, facts: Facts) -> bool:
    """Whether the condition shares a word with the message or the check's conditions."""
    site = facts.stored.site
    texts = [site.message.text if site.message is not None else ""]
    texts += [c.text for c in facts.held]
    theirs = {w.lower() for t in texts for w in _WORD.findall(t.replace("_", " "))}
    ours = {w.lower() for w in _WORD.findall(condition.replace("_", " "))}
    return bool((ours & theirs) - _COMMON)
