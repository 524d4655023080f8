"""A message that names a required environment variable ("CRIU_CUDA_PLUGIN_DIR is required").

"X must be provided" is an instruction `advice.py` reads already; "X is required" says the
same with no verb, and is as often the code's own invariant ("Rank mapping is required",
"kv_cache_config is required for SCHEDULER role": an argument the package's own code
passes). A parameter of a function the user calls has its way out from the check itself
("Give the argument `manager` of `register` a value"), so the sentence is read here only
where its one name is an environment variable the version reads: the user sets it.
"""

from __future__ import annotations

import re

from errdex.explain.advice import sentences, spoken_text
from errdex.explain.advised import declared_env
from errdex.explain.context import Facts
from errdex.explain.page import Solution

# "CRIU_CUDA_PLUGIN_DIR is required", "`HF_TOKEN` is required when ...": one name in capitals,
# then "is required", then at most the case it is required in (no placeholder: a value only
# the user's message holds).
_REQUIRED = re.compile(
    r"^`?(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`?\s+is\s+required"
    r"(?P<case>\s+(?:when|if|with|for)\s+[^{}]{1,80}?)?\s*\.?$"
)

# `x is None`, `not self.x`: a test that a value is absent
_ABSENT = re.compile(r"not\s+[\w.]+|[\w.]+\s+is\s+None")


def required_name_solutions(facts: Facts) -> list[tuple[str, Solution]]:
    """The environment variables the message says are required, each with its way out
    (set it); none that the version does not read."""
    text = spoken_text(facts.stored.site.message)
    if not text:
        return []
    out: list[tuple[str, Solution]] = []
    for sentence in sentences(text):
        match = _REQUIRED.match(sentence.strip())
        if match is None or not declared_env(match["name"], facts):
            continue
        name, case = match["name"], (match["case"] or "").rstrip()
        quoted = f"as the message says: “{sentence.strip()}”"
        said = f"Set the environment variable `{name}`{case}, {quoted}"
        solution = Solution(
            text=said, kind="setting", knob=name, condition=_absent(facts), advice=True
        )
        out.append((name, solution))
    return out


def _absent(facts: Facts) -> str | None:
    """The one held condition that tests a value is absent (`self.plugin_dir is None`): what
    the required variable gives, when the check tests nothing else of the kind."""
    absent = [c.text for c in facts.held if _ABSENT.fullmatch(c.text.strip())]
    return absent[0] if len(absent) == 1 else None
