"""Earlier tests of an `if`/`elif` chain on a field of a JSON-valued flag's object.

When the site sits in a later `elif` of a chain that picks code by a field of the object a
flag takes as JSON (`elif spec_config.rejection_sample_method == "fly": assert
spec_config.fly_window_size is not None`), the value of an earlier branch (`"synthetic"`)
picks other code, with checks of its own (`synthetic` needs its rates): no way out of this
check, as for a configuration class's own key (`knob_actions`). Under the chain's final
`else` (`raise ValueError("Unknown speculative decoding method")`) every earlier value is
one the code accepts, and stays a way out; so does an earlier test of a flag's truth
(`elif attention_config.use_prefill_query_quantization:`), which may be the very setting the
message asks for.
"""

from __future__ import annotations

import ast

from errdex.explain.knob_types import json_valued
from errdex.explain.page import BindingView, ConditionView, Knob
from errdex.extract.conditions import dotted_names
from errdex.facts import ConditionKind, KnobKind
from errdex.link.expression_texts import parse_expression


def earlier_branch(
    condition: ConditionView,
    held: list[ConditionView],
    knobs: list[Knob],
    bindings: list[BindingView],
) -> bool:
    """Whether `condition` is an earlier test of the chain whose later `elif` the site is
    in, comparing a field of a JSON-valued flag's object (read as it is, or through a
    local) with a literal."""
    if condition.holds or condition.kind != ConditionKind.ELIF:
        return False
    if not any(c.holds and c.kind == ConditionKind.ELIF and c.line > condition.line for c in held):
        return False
    objects = [k.behind for k in knobs if k.kind == KnobKind.FLAG and k.behind and json_valued(k)]
    if not objects:
        return False
    tree = parse_expression(condition.test)
    # only a test that picks the branch by the field's value (`x.method == "ngram"`): one of
    # a flag's truth (`elif x.use_quantization:`) may be the very way the message asks for
    if not (
        isinstance(tree, ast.Compare)
        and len(tree.ops) == 1
        and isinstance(tree.ops[0], ast.Eq | ast.In)
        and literal(tree.comparators[0])
    ):
        return False
    local = {b.name: b.value for b in bindings if b.origin == "local"}
    for name in dotted_names(tree.left):
        read = local.get(name, name)
        if any(read.startswith(f"{behind}.") for behind in objects):
            return True
    return False


def chain_arms(conditions: list[ConditionView], own: ConditionView) -> list[ConditionView]:
    """The earlier tests of the `if`/`elif` chain whose later `elif` is `own`, as the path
    holds them (each false), nearest first: the run of false `elif` tests right before `own`
    among `conditions`; none when `own` is no chain's later test."""
    if not own.holds or own.kind != ConditionKind.ELIF:
        return []
    at = next((i for i, c in enumerate(conditions) if c.line == own.line and c.test == own.test), 0)
    arms: list[ConditionView] = []
    for condition in reversed(conditions[:at]):
        if condition.holds or condition.kind != ConditionKind.ELIF:
            break
        arms.append(condition)
    return arms


def literal(node: ast.expr) -> bool:
    """A literal, or a tuple, list or set of literals."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(isinstance(e, ast.Constant) for e in node.elts)
    return isinstance(node, ast.Constant)
