"""Why the check is there, in the code's own words, as read at index time.

The comments next to the check and the docstring of its function say what it guards; the
docstrings of the constants it tests and of the settings behind its names (a config
field's docstring, the comment above an environment variable's read) say what they are
for; a message logged where a setting is applied says what it amounts to (vllm logs "This
is equivalent to setting -cc.mode=none -cc.cudagraph_mode=none" where `enforce_eager`
takes effect). Each is quoted as written, briefly; nothing here reads a file.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts
from errdex.explain.page import Knob
from errdex.explain.plain import code
from errdex.explain.solutions import solutions
from errdex.facts import KnobKind
from errdex.linked_facts import NAMED_IN_MESSAGE, own_key

_MAX_COMMENTS = 2
_MAX_SETTINGS = 2
_MAX_CONSTANTS = 2
_MAX_QUOTE = 300


def code_words(facts: Facts) -> str:
    """One sentence quoting the code around the check, or "" when it says nothing."""
    # every condition's line: a comment above the loop or `with` the check sits in says
    # what it is for as often as one above an `if`
    lines = sorted({c.line for c in facts.conditions} | {facts.stored.site.line})
    parts = [_quote(c) for c in facts.read.comments_near(lines)[:_MAX_COMMENTS]]
    doc = facts.read.docstring
    if doc:
        first = doc.split(". ")[0].rstrip(".")
        parts.append(f"the docstring of {code(facts.stored.site.function)}: {_quote(first + '.')}")
    parts.extend(_settings(facts))
    quoted = [b for b in facts.bindings if b.origin == "constant" and b.doc]
    for binding in quoted[:_MAX_CONSTANTS]:
        parts.append(f"of {code(binding.name)}: {_quote(binding.doc or '')}")
    if not parts:
        return ""
    said = "In the code's own words: " + "; ".join(parts)
    # a quote that ends its own sentence ends this one too
    return said if said.endswith((".”", "!”", "?”", "…”")) else said + "."


def _settings(facts: Facts) -> list[str]:
    """What the settings the solutions turn (or else those the site's own conditions name)
    are documented as, and what the code logs where one takes effect."""
    turned = [s.knob for s in solutions(facts) if s.knob]
    settings = [k for k in facts.knobs if k.kind in (KnobKind.ENV, KnobKind.FLAG)]
    # the settings a solution turns, when any of them says something; else those that
    # decide a condition of the site itself: a setting only a caller's guard reads says
    # nothing of why this check is here
    chosen = [k for k in settings if k.name in turned and (k.doc or k.note)]
    if chosen:
        settings = sorted(chosen, key=lambda k: turned.index(k.name))
    else:
        settings = [k for k in settings if _decides_site(k, facts)]
    out: list[str] = []
    seen: set[str] = set()
    for knob in settings:
        if knob.name in seen or not (knob.doc or knob.note):
            continue
        seen.add(knob.name)
        if knob.doc:
            # a field the message names is documented as that field, not as its flag
            label = knob.behind if knob.via == NAMED_IN_MESSAGE and knob.behind else knob.name
            # a configuration class's own key is documented as that key
            own = knob.json_key if own_key(knob.json_key, knob.via) else None
            of = f"{code(own)} in {code(label)}" if own else code(label)
            out.append(f"of {of}: {_quote(knob.doc)}")
        if knob.note and knob.name in turned:
            out.append(f"where {code(knob.name)} takes effect, the code logs {_quote(knob.note)}")
        if len(seen) >= _MAX_SETTINGS:
            break
    return out


def _decides_site(knob: Knob, facts: Facts) -> bool:
    """Whether the setting decides a condition of the site itself (or of a variant of it,
    the same error raised elsewhere, or a local the conditions test), or the site's
    message names it."""
    if knob.via == NAMED_IN_MESSAGE:
        return True
    if knob.behind is None:
        return False
    texts = [c.text for c in facts.conditions]
    texts.extend(c.text for v in facts.variants for c in v.conditions)
    # a local the conditions test holds what it reads (`kv_dtype = config.attention_config
    # .resolve(...)`)
    texts.extend(b.value for b in facts.bindings if b.origin == "local")
    # the name as a whole: `self.x` is not in `self.x_size`, nor `x` in `self.x`
    name = re.compile(rf"(?<![\w.]){re.escape(knob.behind)}(?!\w)")
    return any(name.search(t) for t in texts)


def _quote(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > _MAX_QUOTE:
        text = text[: _MAX_QUOTE - 1].rsplit(" ", 1)[0] + "…"
    return f"“{text}”"
