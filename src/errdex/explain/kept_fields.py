"""The other fields of a JSON-valued flag that the path holds, kept in its example fix.

vllm's watermarking check raises when `speculative_config.draft_sample_method ==
"probabilistic"` and `rejection_sample_method != "standard"`. The fix
`--speculative-config '{"rejection_sample_method": "standard"}'` alone drops the user's
`draft_sample_method`, whose default (`"greedy"`) meets another check: the fix keeps each
field the path tests equal to a literal, with that value, and each section of the flag's
object the path needs given (`if ac.sparse_config is not None:`) as `{}`, where its class
requires no key (the fix of another key of the same flag would otherwise leave the section
None, its default, and its "before" would not reach the check).
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from errdex.explain.context import Facts
from errdex.explain.declared_fields import declared_fields
from errdex.explain.input_nodes import part_views
from errdex.explain.json_before import YES_NO_DEFAULTS
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView, Knob
from errdex.explain.required_keys import (
    UNKNOWN,
    BuiltClass,
    OwnValue,
    built_class,
    required_keys,
)
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import and_parts, is_not_none
from errdex.link.expression_texts import parse_expression
from errdex.linked_facts import EMPTY_SECTION, own_key

__all__ = ["with_kept_fields"]

# `(`SpeculativeConfig.method`)` of a knob's `via`: the flag's object class and the key
_OWNER = re.compile(r"\(`([A-Za-z_]\w*)\.([A-Za-z_]\w*)`\)")


def with_kept_fields(action: KnobAction, condition: ConditionView, facts: Facts) -> KnobAction:
    """The action with the JSON fields the path holds equal to a literal (other than the
    ones it sets) kept in its fix."""
    try:
        value = ast.literal_eval(action.keyword) if action.keyword else None
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return action
    if not isinstance(value, dict):
        return action
    roots = {k.behind for k in facts.knobs if k.name == action.knob and k.behind}
    roots |= {b.name for b in facts.bindings if b.value in roots}  # `spec = self.spec`
    declared = _own_object(action.knob, facts)
    if declared:
        roots.add("self")
    # a local holding a field as it is (`output_format = self.proton_output_format`)
    held_in = {
        b.name: b.value
        for b in facts.bindings
        if b.origin == "local" and b.value.rpartition(".")[0] in roots
    }
    kept: dict[str, object] = {}
    for other in facts.conditions:
        if other is condition and not _joined(condition):
            continue  # the condition the action changes: its part is the fix's own
        for found in _held_equal(other, roots, held_in, declared):
            if found[0] not in value:
                kept.setdefault(found[0], found[1])
    equal = dict(kept)
    keys = {
        k.behind: k
        for k in facts.knobs
        if k.name == action.knob and k.behind and k.json_key and k.json_key not in value
    }
    sections = {
        field
        for k in facts.knobs
        if k.name == action.knob
        for field, default in k.key_defaults
        if default == EMPTY_SECTION and field not in value
    }
    for other in facts.held if keys or sections else ():
        for part in part_views(other) or []:
            section = _section_given(part.text, roots, sections)
            if section is not None:
                kept.setdefault(section, {})  # given with its defaults: the path reaches on
                continue
            truth = _truth_test(part.text, keys)
            if truth is None:
                continue
            knob, holds = truth
            if knob.key_default not in YES_NO_DEFAULTS:
                # a key of a type not known: no `true` or `false` of it is sure to hold (a
                # `bool | None` left None takes either; written, neither depends on what
                # the program fills in for None later)
                return replace(action, unreached=True)
            kept.setdefault(knob.json_key or "", holds)
    added: dict[str, object] = {}
    if all(isinstance(k, str) for k in value):
        # the keys the object needs as the "after" gives it, and as the "before" does (the
        # fix's keys there not known): those of both in both lines, the others in the
        # "after" alone (a profiler picked needs its folder; given before, another
        # profiler refuses it)
        after = {**kept, **{str(k): v for k, v in value.items()}}
        before = {**kept, **{str(k): UNKNOWN for k in value}}
        needed = _required(action.knob, after, equal, facts)
        both = _required(action.knob, before, equal, facts) if needed else {}
        for key, own in needed.items():
            if key in value:
                continue
            if key in both:
                kept.setdefault(key, own)  # the user's own value, named: the object needs it
            else:
                added.setdefault(key, own)
    if not kept and not added:
        return action
    return replace(action, kept=tuple(kept.items()), added=tuple(added.items()))


def _required(
    flag: str, given: dict[str, object], equal: dict[str, object], facts: Facts
) -> dict[str, OwnValue]:
    """The keys the flag's object is not built without, beside those `given`."""

    def read() -> BuiltClass | None:
        owner = _object_class(flag, facts)
        return built_class(owner) if owner is not None else None

    def make() -> dict[str, OwnValue]:
        return required_keys(facts.once(f"built_class:{flag}", read), given, equal)

    return facts.once(f"required_keys:{flag}:{given!r}:{equal!r}", make)


def _object_class(flag: str, facts: Facts) -> ast.ClassDef | None:
    """The class of a JSON-valued flag's object (`SpeculativeConfig` of
    `--speculative-config`), as a knob of it names its own key (`(`SpeculativeConfig.x`)`),
    parsed from the site's file or the module the file imports it from; None elsewhere."""
    for knob in facts.knobs:
        key = knob.json_key
        if knob.name != flag or key is None or not own_key(key, knob.via):
            continue
        found = _OWNER.search(knob.via or "")
        if found is None or found.group(2) != key:
            continue
        name = found.group(1)
        owner = facts.top_class(name)
        if owner is None and facts.imported_class is not None:
            owner = facts.imported_class(name)
        return owner
    return None


def _joined(condition: ConditionView) -> bool:
    """Whether the condition holds an `and` of parts on the path: the action changes one,
    the others (`output_format == "chrome_trace"` beside `self.proton_data != "trace"`)
    hold in both lines of the fix."""
    node = parse_expression(condition.test)
    return condition.holds and node is not None and len(and_parts(node)) > 1


def _own_object(flag: str, facts: Facts) -> frozenset[str]:
    """The fields the site's own class declares, when a knob of the flag is a key of it
    (`self.use_x` of `SpeculativeConfig`, the site in its method): the object the site tests
    is then the flag's, and a field of it the path holds equal to a literal (`self.method ==
    "draft_model"`) is one of the JSON's, kept. Only a declared field is a key: a private
    attribute or a property (`self._kind`, set in `__post_init__`) is none the JSON takes."""
    owner = (facts.stored.site.class_name or "").rpartition(".")[2]
    if not owner:
        return frozenset()
    for knob in facts.knobs:
        key = knob.json_key
        if knob.name != flag or key is None or knob.behind != f"self.{key}":
            continue
        if own_key(key, knob.via) and f"(`{owner}.{key}`)" in (knob.via or ""):
            cls = facts.top_class(owner)
            return frozenset(declared_fields(cls)) if cls is not None else frozenset()
    return frozenset()


def _section_given(text: str, roots: set[str], sections: set[str]) -> str | None:
    """The section of the flag's object a part needs given (`root.section is not None`, or
    `root.section` as a truth value), one whose class requires no key; else None."""
    node = parse_expression(text)
    node = (is_not_none(node) or node) if node is not None else None
    name = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    if name is None or "." not in name:
        return None
    root, _, field = name.rpartition(".")
    return field if root in roots and field in sections else None


def _truth_test(text: str, keys: dict[str, Knob]) -> tuple[Knob, bool] | None:
    """(the key's knob, the truth the path holds) for a part that tests another key of the
    flag's JSON as a truth value (`self.dp_shared_memory`, `not self.use_async`)."""
    node = parse_expression(text)
    holds = True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node, holds = node.operand, False
    name = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    knob = keys.get(name) if name is not None else None
    return (knob, holds) if knob is not None else None


def _held_equal(
    condition: ConditionView,
    roots: set[str],
    held_in: dict[str, str],
    declared: frozenset[str] = frozenset(),
) -> list[tuple[str, str | int | float | bool]]:
    """(field, value) for each `root.field == literal` the condition holds on the path: the
    condition itself, or a part of an `and` it holds whole (of `self`, a field `declared`)."""
    node = parse_expression(condition.test)
    if node is None:
        return []
    if condition.holds:
        parts = and_parts(node)
    else:
        parts = [node]
    found = [_equal(part, roots, condition.holds, held_in) for part in parts]
    return [(f[0], f[1]) for f in found if f is not None and (f[2] != "self" or f[0] in declared)]


def _equal(
    node: ast.expr, roots: set[str], holds: bool, held_in: dict[str, str]
) -> tuple[str, str | int | float | bool, str] | None:
    """(field, value, root) when `node`, holding `holds`, holds `root.field == literal` (or
    the same of a local `held_in` says holds `root.field`)."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    op = node.ops[0]
    if not (isinstance(op, ast.Eq) and holds) and not (isinstance(op, ast.NotEq) and not holds):
        return None
    left = dotted_name(node.left)
    if isinstance(node.left, ast.Name):
        left = held_in.get(node.left.id, left)
    if left is None or "." not in left:
        return None
    root, _, field = left.rpartition(".")
    if root not in roots or not field.isidentifier():
        return None
    try:
        literal = ast.literal_eval(node.comparators[0])
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return None
    return (field, literal, root) if isinstance(literal, str | int | float | bool) else None
