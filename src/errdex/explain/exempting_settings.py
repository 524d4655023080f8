"""A permission switch turned off: no way out when its check elsewhere then applies.

vllm's `SpecDecodeBaseProposer.set_inputs_first_pass` asserts `self.vocab_mapping is not None`
under `if self.use_heterogeneous_vocab:` (a key of `--speculative-config`). Turning the key
off looks like a way out, but the key is a permission ("Allow draft and target models to use
different vocabularies", `link.permissions`): `SpeculativeConfig._verify_args` calls
`verify_equal_vocab_size_if_draft_model()` only `if not self.use_heterogeneous_vocab:`, and
that raises when the two vocabularies differ, the case the key is there for. The user who
turned it on meets that check turned off.

Read from the index: the sites of the version whose stored facts name the setting
(`Store.sites_naming`), kept when a knob of theirs is the same setting and a permission
(`link.permissions.permits`: off by default, named or documented as allowing), and a direct
caller calls their function only under `not <the name>`. A setting that is a mode of its own
(`VLLM_BATCH_INVARIANT`, "Enable batch-invariant mode") is not one: turned off, the checks
of its other branch are that mode's, not a refusal it lets the user past. Nor is a check
whose own condition tests the setting beside other things: it refuses another value with
it.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Exempted, Facts
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView, Knob
from errdex.explain.plain import code
from errdex.facts import KnobKind
from errdex.link.expression_texts import parse_expression
from errdex.link.permissions import permits
from errdex.store.base import StoredSite

__all__ = ["exempted_sentence", "exempting_check"]

_SETTINGS = (KnobKind.FLAG, KnobKind.ENV)


def exempting_check(condition: ConditionView, action: KnobAction, facts: Facts) -> Exempted | None:
    """The check another function of the version makes only when the permission `action`
    would turn off is off, when `action` makes `condition` false by turning it off."""
    knob = _turned_off(condition, action, facts)
    if knob is None or facts.sites_naming is None:
        return None
    for other in facts.sites_naming(knob.json_key or knob.name):
        if other.id == facts.stored.id:
            continue
        found = _exempted_by(other, knob, condition.text)
        if found is not None:
            return found
    return None


def _turned_off(condition: ConditionView, action: KnobAction, facts: Facts) -> Knob | None:
    """The knob of `action` when `condition` holds on the path as that knob's name alone,
    tested for truth (`self.use_heterogeneous_vocab`): the way out turns it off."""
    if action.part is not None:
        return None  # one part of an `and`: the setting is not the whole condition
    held = parse_expression(condition.text)
    if held is None:
        return None
    for knob in facts.knobs:
        if knob.name != action.knob or knob.kind not in _SETTINGS or knob.behind is None:
            continue
        if ast.unparse(held) == knob.behind and knob.same_value:
            return knob
    return None


def _exempted_by(other: StoredSite, knob: Knob, condition: str) -> Exempted | None:
    for link in other.knobs:
        if link.name != knob.name or link.json_key != knob.json_key:
            continue
        if not permits(link, link.doc):
            continue  # a mode of its own, whose checks off are no permission's
        for caller in other.caller_links:
            if caller.depth != 1 or not caller.guard_known:
                continue
            if any(_negates(c.statement, link.behind) for c in caller.guard):
                setting = code(knob.json_key) + " of " if knob.json_key else ""
                return Exempted(
                    condition,
                    setting + code(knob.name),
                    caller.function,
                    other.site.function,
                    other.file,
                    other.site.line,
                )
    return None


def _negates(text: str, behind: str) -> bool:
    """Whether `text`, as it holds on the path, is `not <behind>` alone."""
    held = parse_expression(text)
    return (
        isinstance(held, ast.UnaryOp)
        and isinstance(held.op, ast.Not)
        and ast.unparse(held.operand) == behind
    )


def exempted_sentence(found: list[Exempted]) -> str | None:
    """What "What it means" says of a permission a way out would turn off."""
    said = [
        f"Turning {f.setting} off is no way out: it allows what {code(f.function)} refuses "
        f"({f.file}:{f.line}), which {code(f.caller)} checks only when it is off."
        for f in found[:1]
    ]
    return " ".join(said) or None
