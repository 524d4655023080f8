"""The literal value of a name a setting is compared with: `args.backend not in
valid_backends` after `valid_backends = {"vllm", "hf"}`, `mode in LOGPROBS_MODES` with the
module constant `LOGPROBS_MODES = ["processed_logprobs", "raw_logprobs"]`.

The condition names the collection, not its values, so the setting's action can only say
"change the flag". The page holds the value (a local's last assignment, a constant the
linker resolved); put in the comparison's place, the setting gets the value that avoids the
check ("pass `--backend` with one of ..."). Only a comparison by equality or membership,
only a value that is a literal as a whole (a local built from calls or other names is not).
"""

from __future__ import annotations

import ast
import copy
import json

import msgspec

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView
from errdex.extract.conditions import dotted_name
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

_COMPARED = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
# An early exit for one value (`if a2a == PASSTHROUGH: return`, held as `!=`) is a special
# case the function handles first, which the program may set itself (a value the command
# line does not offer): its value is no way out. Leaving it (held `==`: "a value other than")
# still is.
_EXIT_COMPARED = (ast.Eq, ast.In)


def with_literals(condition: ConditionView, facts: Facts) -> ConditionView:
    """The condition with each name compared with (the right side of `==`, `!=`, `in`,
    `not in`) replaced by its literal value; unchanged when there is none."""
    values = _literal_values(facts)
    if not values:
        return condition
    parsed = parse_expression(condition.text)
    if parsed is None:
        return condition
    tree = copy.deepcopy(parsed)  # the parse is shared, read only
    ops = _EXIT_COMPARED if condition.kind == ConditionKind.EARLY_EXIT else _COMPARED
    changed = False
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ops)
        ):
            continue
        right = dotted_name(node.comparators[0]) or ""
        if right in values and (dotted_name(node.left) or "") not in values:
            node.comparators = [values[right]]
            changed = True
    if not changed:
        return condition
    return msgspec.structs.replace(condition, text=ast.unparse(tree), plain=None)


def _literal_values(facts: Facts) -> dict[str, ast.expr]:
    """Each local or constant of the page whose value is a literal string, number or
    collection of them → that value as an expression (worked out once a page)."""
    memo: dict[str, ast.expr] | None = facts.memo.get("literal_bindings")
    if memo is not None:
        return memo
    out: dict[str, ast.expr] = {}
    for binding in facts.bindings:
        node = _literal(binding.value, binding.origin)
        if node is not None:
            out[binding.name] = node
    facts.memo["literal_bindings"] = out
    return out


def _literal(text: str, origin: str) -> ast.expr | None:
    if origin == "constant":
        try:
            value = json.loads(text)
        except ValueError:
            return None
        text = repr(value)
    elif origin != "local":
        return None
    node = parse_expression(text)
    if node is None or not _plain(node):
        return None
    return node


def _plain(node: ast.expr) -> bool:
    """A string or number, or a tuple, list or set of them (not empty)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str | int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str | int | float)
            for e in node.elts
        )
    return False
