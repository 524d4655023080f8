"""The size flag behind a parallel group's size, on a check of a model's KV heads.

A local bound to a group accessor (`tp_size = get_tensor_model_parallel_world_size()`) is
the size the user gave a flag (`KnobLink.group_size`). The check `heads % tp_size != 0`
(or its truth, `if heads % tp_size:`) passes with a size that divides the heads,
`tp_size % heads != 0` with a multiple of them that the attention heads still divide.
Only the KV heads are named: a model's attention heads are checked against the same flag
by the configuration before any model is built (vllm's `verify_with_parallel_config`), so
a model's own check of them fails only with numbers that check let pass, and offering the
flag there names a way the user never meets; for the same reason a multiple of the KV
heads must divide the attention heads. A check that fails only when neither the size nor
another count divides the other (`x % size != 0` and `size % x != 0`, the message's "one
must divide the other") passes with a size that divides that count or a multiple of it
(`either_way`). The site's own test that the size is above another count of the model
(`self.tp_size > config.num_experts`: more ranks than experts to split) passes with a size
at most that count, which divides the attention heads as well (`above_count`). Any other
test of the size names nothing.

Where the check that the heads divide by the size sits under a comparison of the heads
with the size, the page says the other branch's way too (`group_size_branches`).
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.page import ConditionView, Knob
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_name, dotted_names
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

# what the multiple must divide too: the configuration's check of the attention heads
DIVIDING_HEADS = "that divides the attention heads"


def group_size_action(node: ast.expr, knob: Knob) -> str | None:
    """What to pass the flag for the remainder test `node` on a model's KV heads to be 0,
    or None when `node` is no such test."""
    found = kv_remainder(node, knob)
    if found is None:
        return None
    heads, divides = found
    if divides:
        return f"Pass `{knob.name}` with a size that divides {code(heads)}"
    return f"Pass `{knob.name}` with a multiple of {code(heads)} {DIVIDING_HEADS}"


def either_way(
    condition: ConditionView, knobs: list[Knob], held: list[ConditionView]
) -> tuple[str, str] | None:
    """What to pass the flag for a check that fails only when neither the size nor the
    other count divides the other: `x % size != 0` and `size % x != 0` both among the
    conditions the raise needs (`held`), `x` a name the code was given (not the KV heads,
    which `group_size_action` answers). A size that divides `x` makes the first false, a
    multiple of it the second; the message of such a check says as much ("one must divide
    the other"). The action's text (the way out of this condition) and the flag."""
    node = parse_expression(condition.text)
    if node is None:
        return None
    for knob in knobs:
        if not knob.group_size or knob.behind is None:
            continue
        found = remainder(node, knob)
        if found is None or _kv_heads(found[0]):
            continue
        other = ast.unparse(found[0])
        for each in held:
            test = parse_expression(each.text)
            reverse = remainder(test, knob) if test is not None else None
            if reverse is not None and ast.unparse(reverse[0]) == other and reverse[1] != found[1]:
                if found[1]:
                    return f"Pass `{knob.name}` with a size that divides {code(other)}", knob.name
                return f"Pass `{knob.name}` with a multiple of {code(other)}", knob.name
    return None


def kv_remainder(node: ast.expr, knob: Knob) -> tuple[str, bool] | None:
    """The KV heads `node` takes a remainder of (or by), and whether the size must divide
    them (`heads % size`, else `size % heads`), for `x % y != 0` or `x % y` tested true."""
    found = remainder(node, knob)
    if found is None or not _kv_heads(found[0]):
        return None
    return ast.unparse(found[0]), found[1]


def remainder(node: ast.expr, knob: Knob) -> tuple[ast.expr, bool] | None:
    """The name or attribute `node` takes a remainder of the size by (or of it by), and
    whether the size must divide it, for `x % y != 0` or `x % y` tested true."""
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.NotEq)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value == 0
    ):
        node = node.left
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)):
        return None
    left, right = node.left, node.right
    if _is_size(right, knob) and isinstance(left, ast.Name | ast.Attribute):
        return left, True
    if _is_size(left, knob) and isinstance(right, ast.Name | ast.Attribute):
        return right, False
    return None


def fewer_heads(
    condition: ConditionView, knobs: list[Knob], held: list[ConditionView]
) -> tuple[str, str] | None:
    """What to pass the flag for the site's own test that the KV heads are fewer than the
    size (`heads < size`, `size > heads`), the last of the conditions the raise needs
    (`held`): a size that divides them, which is at most them and passes the remainder
    check a model makes of them beside it. Not for a branch's comparison on the way (the
    other branch checks too: `other_branch`). The action's text and the flag."""
    last = held[-1] if held else None
    if last is None or (last.line, last.text) != (condition.line, condition.text):
        return None
    sides = fewer_than(parse_expression(condition.text))
    if sides is None:
        return None
    heads, size = sides
    if not (isinstance(heads, ast.Name | ast.Attribute) and _kv_heads(heads)):
        return None
    for knob in knobs:
        if knob.group_size and knob.behind is not None and _is_size(size, knob):
            return (
                f"Pass `{knob.name}` with a size that divides {code(ast.unparse(heads))}",
                knob.name,
            )
    return None


def above_count(
    condition: ConditionView,
    knobs: list[Knob],
    held: list[ConditionView],
    function: ast.FunctionDef | None,
) -> tuple[str, str] | None:
    """What to pass the flag for the site's own test that the size is above another count
    of the model (`if self.tp_size > config.num_experts: raise ValueError(...)`), the last
    of the conditions the raise needs (`held`): a size at most that count, which must
    divide the attention heads too (the configuration checks them against the flag before
    any model is built). Not the KV heads (`fewer_heads` says a size dividing them); not a
    count a setting is behind as well (a peer's size: moving one moves what it is matched
    with); not an `assert` (the program's own state); and not where the site's function
    tests the size again on the way to another raise (`assert self.tp_size <= groups`, then
    `assert groups % self.tp_size == 0`): a smaller size may fail that one. The action's
    text and the flag."""
    last = held[-1] if held else None
    if last is None or (last.line, last.text) != (condition.line, condition.text):
        return None
    if condition.kind is ConditionKind.ASSERT:
        return None
    sides = fewer_than(parse_expression(condition.text))
    if sides is None:
        return None
    count, size = sides
    if not isinstance(count, ast.Name | ast.Attribute) or _kv_heads(count):
        return None
    counted = ast.unparse(count)
    if set(dotted_names(count)) & {k.behind for k in knobs}:
        return None
    for knob in knobs:
        if not (knob.group_size and knob.behind is not None and _is_size(size, knob)):
            continue
        if function is None or _size_checks(function, knob) > 1:
            return None
        return f"Pass `{knob.name}` with a size at most {code(counted)} {DIVIDING_HEADS}", knob.name
    return None


def _size_checks(function: ast.FunctionDef, knob: Knob) -> int:
    """How many tests of the function read the size on the way to an error: an `assert`,
    or an `if` whose own body raises."""
    found = 0
    for node in walk(function):
        if not isinstance(node, ast.Assert | ast.If):
            continue
        if isinstance(node, ast.If) and not any(isinstance(s, ast.Raise) for s in node.body):
            continue
        if any(isinstance(n, ast.expr) and _is_size(n, knob) for n in walk(node.test)):
            found += 1
    return found


def fewer_than(node: ast.expr | None) -> tuple[ast.expr, ast.expr] | None:
    """The two sides of a strict comparison, the smaller first: (`a`, `b`) of `a < b` and of
    `b > a`; None for any other test."""
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Lt | ast.Gt)
    ):
        return None
    left, right = node.left, node.comparators[0]
    return (left, right) if isinstance(node.ops[0], ast.Lt) else (right, left)


def _is_size(node: ast.expr, knob: Knob) -> bool:
    """Whether `node` is the name the size is behind: a local (`tp_size`) or an attribute
    of the object (`self.tp_size`)."""
    if isinstance(node, ast.Name):
        return node.id == knob.behind
    return isinstance(node, ast.Attribute) and dotted_name(node) == knob.behind


def _kv_heads(node: ast.expr) -> bool:
    """A count of the model's key/value heads: `self.total_num_kv_heads`,
    `config.num_key_value_heads`."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return "kv_heads" in name or "key_value_heads" in name
