"""A message that says what can cause the error, in a setting's own words: the way out.

"The output size is not aligned with the quantized weight shape. This can be caused by too
large tensor parallel size." names `--tensor-parallel-size` by its words; the link gives the
page that flag when an arguments class of the program's command line declares it
(`link.named.caused_flags`: two words or more, joined by `_`, a field whose flag has that
name). The way out the message points at is a smaller value of it (a larger one for "too
small"). Which value is the user's to pick (it divides what the check measures), so no
example fix gives one.
"""

from __future__ import annotations

from errdex.explain.advice import spoken_text
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.facts import KnobKind
from errdex.link.named import caused_flags
from errdex.linked_facts import NAMED_IN_MESSAGE


def cause_solution(facts: Facts) -> Solution | None:
    """ "Pass a smaller `--tensor-parallel-size`, as the message says: ..." for a message
    that names too large (or too small) a value of a linked flag as a cause; else None."""
    message = spoken_text(facts.stored.site.message)
    flags = {
        k.name
        for k in facts.knobs
        if k.kind == KnobKind.FLAG and k.via == NAMED_IN_MESSAGE and k.behind == k.name
    }
    if not message or not flags:
        return None
    found = caused_flags(message, lambda field: _flag(field, flags))
    if len(found) != 1:
        return None  # two settings named as causes: which one is not said
    flag, lower = found[0]
    said = facts.stored.site.message
    text = said.text.strip() if said is not None else message
    size = "smaller" if lower else "larger"
    return Solution(
        text=f"Pass a {size} {code(flag)}, as the message says: “{text}”",
        knob=flag,
        kind="setting",
        advice=True,
    )


def _flag(field: str, flags: set[str]) -> str | None:
    flag = "--" + field.replace("_", "-")
    return flag if flag in flags else None
