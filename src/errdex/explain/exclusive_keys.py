"""Yes/no keys of one JSON-valued flag that a check refuses together: either one turned.

`SpeculativeConfig._verify_args` raises under `self.use_heterogeneous_vocab and
self.use_local_argmax_reduction`; `EngramConfig` under `self.dp_shared_memory and not
self.cpu_offload`. Each key is the user's, in the JSON of `--speculative-config` or
`--engram-config`, and turning any one of them the other way avoids the check: which one
to give up is the user's choice, so the page offers each, in the flag's JSON form, with
the other keys as the check needs them in the fix's "before". Only keys known to be
yes/no by their own default (`Knob.key_default`): a truth test of a key of another type
(a model name, a list) has no `false` to write.
"""

from __future__ import annotations

import ast
import json
import shlex

from errdex.explain.fix_forms import setting_fix
from errdex.explain.knob_actions import KnobAction
from errdex.explain.knob_types import json_valued, nested_key
from errdex.explain.page import ConditionView, Knob, Solution
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_name
from errdex.facts import KnobKind
from errdex.link.expression_texts import parse_expression


def exclusive_keys_solution(condition: ConditionView, knobs: list[Knob]) -> Solution | None:
    """Each yes/no key of one flag's JSON that an `and` test reads, turned the way that
    makes its part false, as one solution; None unless at least two such keys."""
    node = parse_expression(condition.text)
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
        return None
    turned: list[tuple[Knob, str, bool]] = []  # the key's knob, the key, the value to set
    for part in node.values:
        negative = isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not)
        inner = part.operand if isinstance(part, ast.UnaryOp) and negative else part
        name = dotted_name(inner) if isinstance(inner, ast.Name | ast.Attribute) else None
        knob = next((k for k in knobs if name and k.behind == name and _yes_no_key(k)), None)
        if knob is not None and knob.json_key is not None:
            turned.append((knob, knob.json_key, negative))
    if len(turned) < 2 or len({k.name for k, _, _ in turned}) != 1:
        return None
    if len({key for _, key, _ in turned}) != len(turned):
        return None  # one key read twice: nothing to choose between
    flag = turned[0][0].name
    forms = [f"`{flag} {shlex.quote(json.dumps({key: value}))}`" for _, key, value in turned]
    held = [f"{code(key)} {'false' if value else 'true'}" for _, key, value in turned]
    text = (
        f"Pass {' or '.join(forms)} (with the rest of your {flag} fields): the check refuses "
        f"{' together with '.join(held)}, so turning any one of them avoids it."
    )
    first_key, first_value = turned[0][1], turned[0][2]
    action = KnobAction(
        text=text,
        knob=flag,
        keyword=repr({first_key: first_value}),
        # the other keys as the check needs them: the "before" fails, the "after" does not
        kept=tuple((key, not value) for _, key, value in turned[1:]),
    )
    return Solution(
        text=text,
        knob=flag,
        condition=condition.text,
        kind="setting",
        fix=setting_fix(action, condition, knobs),
    )


def _yes_no_key(knob: Knob) -> bool:
    return (
        knob.kind == KnobKind.FLAG
        and knob.json_key is not None
        # plain yes/no keys: a `bool | None` left None is the program's to decide, and the
        # message's requirement (`stated_setting`) or the key it needs on says the way
        and knob.key_default in ("True", "False")
        and json_valued(knob)
        and not nested_key(knob)  # the JSON nests a dict's key: not `{key: value}`
    )
