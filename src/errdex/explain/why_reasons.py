"""Whether a text of the code says why a check is there or when it fails, rather than what a
thing is, and a quote of it cut at a sentence's end.

An argument's entry ("The input tensor to be quantized"), a flag's help ("The format of the
model weights to load") or a docstring's summary ("Add a new request") says what something
is or does: no reason for a check. A reason states a requirement or a limit ("must be a
single character", "requires the Triton backend", "at most eight"), a failure ("raises",
"is refused", "a hard error"), or a cause ("because", "so that", "to avoid").
"""

from __future__ import annotations

import re

# the words of a requirement, a limit, a failure or a cause; a bare "if"/"when" is not one
# ("If True, the batch is a uniform decode batch" says what a value means)
_REASON = re.compile(
    r"\b(?:must|should|shall|only|requires?|required|requirements?|needs?|needed"
    r"|expect(?:s|ed)?|cannot|can't|can\s+not|(?:un)?support(?:s|ed)?|raise[sd]?|raising"
    r"|errors?|fail(?:s|ed|ure|ing)?|reject(?:s|ed)?|refuse[sd]?|(?:dis)?allow(?:s|ed)?"
    r"|forbid(?:s|den)?|at\s+(?:least|most)|exceed(?:s|ed|ing)?|never|invalid|validat\w*"
    r"|max(?:imum)?|min(?:imum)?|limit(?:s|ed)?|bound(?:s|ed)?|enforce[sd]?|ensures?"
    r"|guarantee[sd]?|prevents?|avoids?|exclusive|(?:in)?compatible|deprecated|unless"
    r"|otherwise|because|since|so\s+that|in\s+order\s+to|assumes?|assumed|mismatch\w*"
    r"|warn(?:s|ed|ing)?|one\s+of)\b"
    # what is taken, as alternatives ("Either "chat" or "thinking"."); an "either" further
    # on most often tells what a value does ("DCP either spans the PCP axis or ...")
    r"|^\W*either\b",
    re.I,
)
# where a sentence ends: `.`, `!` or `?` (after a word, a closing quote or bracket) before a
# space, or at the end of the text
_END = re.compile(r"(?<=[\w)`'\"\]])[.!?](?=\s|$)")


def states_reason(text: str) -> bool:
    """Whether the text states a requirement, a limit, a failure or a cause."""
    return _REASON.search(text) is not None


def whole_sentences(text: str, limit: int) -> str | None:
    """The text when it fits in `limit` characters, else its sentences up to the last that
    ends in time; None when the first does not (a quote is never cut inside a sentence).
    A text that ends on `:` introduces what it leaves out: None."""
    if text.rstrip().endswith(":"):
        return None
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _END.finditer(text, 0, limit)]
    return text[: ends[-1]] if ends else None
