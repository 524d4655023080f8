"""The member the message says to use, given to the key of the flag's JSON it replaces.

"HiSparse does not support cudagraph_mode=FULL; use FULL_AND_PIECEWISE (the default)": the
check tests `self.compilation_config.cudagraph_mode == CUDAGraphMode.FULL`, and
`--compilation-config` is the JSON-valued flag behind `self.compilation_config` whose object
has the key `cudagraph_mode`. The message names the key with the member the user gave and
the member to use instead, so the way out is that key given that member
(`--compilation-config '{"cudagraph_mode": "FULL_AND_PIECEWISE"}'`): the feature the user
asked for stays on. Nothing is offered unless the message names the key with the member the
check compares it to (`cudagraph_mode=FULL`), nor for a member that is no upper-case name.
"""

from __future__ import annotations

import ast
import json
import re

from errdex.explain.context import Facts
from errdex.explain.fix_forms import setting_fix
from errdex.explain.knob_actions import KnobAction
from errdex.explain.knob_types import json_valued
from errdex.explain.page import Solution
from errdex.facts import KnobKind
from errdex.link.expression_texts import parse_expression

# "cudagraph_mode=FULL": the key, and the member the user gave it
_KEY_GIVEN = re.compile(r"(?<![\w.])(?P<key>[a-z_][a-z0-9_]*)\s*=\s*(?P<given>[A-Z][A-Z0-9_]*)\b")
# "use FULL_AND_PIECEWISE": the member to use
_USE_MEMBER = re.compile(r"\buse\s+`?(?P<member>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,})`?(?!\w)")


def member_solution(advice: str, facts: Facts) -> Solution | None:
    """The flag's key given the member the advice names, as the message says; or None."""
    message = facts.stored.site.message
    use = _USE_MEMBER.search(advice)
    if message is None or use is None:
        return None
    member = use["member"]
    for given in _KEY_GIVEN.finditer(message.text):
        if given["given"] == member:
            continue
        for condition in facts.held:
            behind = _compared(condition.text, given["key"], given["given"])
            knob = next(
                (
                    k
                    for k in facts.knobs
                    if k.kind == KnobKind.FLAG
                    and k.behind == behind
                    and json_valued(k)
                    and given["key"] in dict(k.key_defaults)
                ),
                None,
            )
            if knob is None:
                continue
            setting = json.dumps({given["key"]: member})
            action = KnobAction(
                text=f"Pass `{knob.name} '{setting}'`",
                knob=knob.name,
                keyword=repr({given["key"]: member}),
                # the line before gives the key the member the check refuses, as the user did
                had=((given["key"], given["given"]),),
            )
            fix = setting_fix(action, condition, facts.knobs)
            return Solution(
                text=f"Pass `{knob.name} '{setting}'` (with the rest of your {knob.name} "
                f"fields), as the message says: “{advice}”",
                knob=knob.name,
                condition=condition.text,
                kind="setting",
                fix=fix,
                advice=True,
            )
    return None


def _compared(test: str, key: str, member: str) -> str | None:
    """`X` of a test `X.key == Enum.member` (or `is`), else None."""
    node = parse_expression(test)
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not isinstance(node.ops[0], ast.Eq | ast.Is):
        return None
    left, right = node.left, node.comparators[0]
    if isinstance(left, ast.Attribute) and left.attr == member:
        left, right = right, left  # `Enum.member == X.key`
    if not (isinstance(left, ast.Attribute) and left.attr == key):
        return None
    if not (isinstance(right, ast.Attribute) and right.attr == member):
        return None
    return ast.unparse(left.value)
