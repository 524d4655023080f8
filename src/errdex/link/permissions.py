"""A permission switch: a yes/no setting, off by default, that allows what a check refuses.

vllm's `SpeculativeConfig` checks that the draft and target models share one vocabulary
only `if not self.use_heterogeneous_vocab`, a key of `--speculative-config` documented
"Allow draft and target models to use different vocabularies". Turning such a switch on
is the way its authors give past the check: not another mode with requirements of its own,
as turning on a switch a guard keeps off generally is. A switch is read as a permission
when its name says so (`VLLM_ALLOW_X`, `--allow-x`, `allow_x` of a JSON object) or its doc
begins so ("Allow ...", "Permit ..."), and only when left out it is off.
"""

from __future__ import annotations

import re

from errdex.facts import KnobKind
from errdex.linked_facts import KnobLink

__all__ = ["permits"]

_NAME = re.compile(r"(?:^|[_\-])(?:allow|allows|allowed|permit|permits|permitted)(?:[_\-]|$)", re.I)
_DOC = re.compile(r"\s*(?:if\s+(?:set|true|enabled),\s*)?(?:allow|allows|permit|permits)\b", re.I)
# a true default given to the read: `, "1"`, `, default="true"`, `, 1`, `, True`
_TRUE_DEFAULT = re.compile(
    r""",\s*(?:default\s*=\s*)?(?:['"](?:1|true|yes|on)['"]|1\b|True\b)""", re.I
)
_OFF = (None, "False", "false", "0", "")


def permits(knob: KnobLink, doc: str | None) -> bool:
    """Whether the setting (with `doc`, its own or its key's) is a permission switch that is
    off when left out: a JSON object's yes/no key defaulting to false, a flag defaulting
    to false or None, an environment variable with no true default."""
    key = knob.json_key
    if key is not None:
        if knob.key_default != "False":
            return False
        named = key
    else:
        if knob.default not in _OFF or knob.kind not in (KnobKind.FLAG, KnobKind.ENV):
            return False
        if knob.value_type is not None and "bool" not in knob.value_type and not knob.bare:
            return False  # `VLLM_ALLOWED_HOSTS: str`: a value, no switch to turn on
        if knob.kind == KnobKind.ENV and _TRUE_DEFAULT.search(knob.reads or ""):
            return False  # `os.getenv("VLLM_ALLOW_X", "1")`: on when left out
        named = knob.name.lstrip("-")
    return _NAME.search(named) is not None or (doc is not None and _DOC.match(doc) is not None)
