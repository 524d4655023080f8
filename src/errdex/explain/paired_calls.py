"""A method that takes an item off the object's own stack, called with no item it may take:
pair it with the method that puts one there, called first.

rich's `ThemeStack.pop_theme` raises "Unable to pop base theme" when
`len(self._entries) == 1` and otherwise `self._entries.pop()`s; the constructor starts the
stack with that one entry, and only `push_theme` appends to it. No argument of
`pop_theme` decides that: a `pop_theme` called more often than `push_theme` does. The way
out is to pair each call with an earlier call of the method that adds to the attribute.
Offered only where the raising method itself takes an item off the attribute it tests,
the constructor starts the attribute with exactly the items the test refuses to go below
(a literal list, empty for `not self._x`), no other method takes items off it or assigns
it again, and public methods of the class add to it.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.call_first import call_first_fix
from errdex.explain.call_order import (
    Methods,
    is_own,
    own_assignments,
    reached_calls,
    same_kind,
    state_checks,
    user_called,
)
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression

_ADDS = frozenset({"append", "appendleft", "extend", "extendleft", "insert"})
_TAKES = frozenset({"pop", "popleft"})


def paired_call_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Pair each `pop_theme` on your `ThemeStack` object with an earlier `push_theme()`";
    else None."""
    if facts.stored.site.kind != SiteKind.RAISE:
        return None
    for target, member, condition, (attr, kept), methods in state_checks(
        conditions, facts, _emptied, _may_add
    ):
        own = methods.get(member)
        if own is None or not _takes(own, attr) or not _starts_with(methods, attr, kept):
            continue
        if any(
            _takes(m, attr) or (name != "__init__" and any(own_assignments(m, attr)))
            for name, m in methods.items()
            if name != member
        ):
            continue  # another way to empty it: no count of calls decides it alone
        adders = _adders(methods, attr, member)
        if adders:
            return _solution(target, member, adders, attr, condition, methods, facts)
    return None


def _emptied(text: str) -> tuple[str, int] | None:
    """(`_entries`, 1) of `len(self._entries) == 1` (or `<= 1`, `< 2`), (`_items`, 0) of
    `not self._items`: the attribute, and how many items the check refuses to go below."""
    if "self." not in text:
        return None
    node = parse_expression(text)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and is_own(node.operand):
        return node.operand.attr, 0
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    sized, bound = node.left, node.comparators[0]
    if not (
        isinstance(sized, ast.Call)
        and isinstance(sized.func, ast.Name)
        and sized.func.id == "len"
        and len(sized.args) == 1
        and is_own(sized.args[0])
        and isinstance(bound, ast.Constant)
        and type(bound.value) is int
    ):
        return None
    attr = sized.args[0].attr
    if isinstance(node.ops[0], ast.Eq | ast.LtE):
        return attr, bound.value
    if isinstance(node.ops[0], ast.Lt) and bound.value > 0:
        return attr, bound.value - 1
    return None


def _may_add(text: str, state: tuple[str, int]) -> bool:
    """Whether the class's text may add to the attribute (`self._entries.append(`)."""
    verbs = "|".join(sorted(_ADDS))
    return re.search(rf"\b{re.escape(state[0])}\s*\.\s*(?:{verbs})\s*\(", text) is not None


def _item_calls(method: ast.AST, attr: str, names: frozenset[str]) -> bool:
    """Whether the method calls `self.attr.<one of names>(...)`."""
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in names
        and is_own(node.func.value)
        and node.func.value.attr == attr
        for node in walk(method)
    )


def _takes(method: ast.AST, attr: str) -> bool:
    """`self.attr.pop()` or `del self.attr[...]`."""
    return _item_calls(method, attr, _TAKES) or any(
        isinstance(node, ast.Delete)
        and any(
            isinstance(t, ast.Subscript) and is_own(t.value) and t.value.attr == attr
            for t in node.targets
        )
        for node in walk(method)
    )


def _starts_with(methods: Methods, attr: str, kept: int) -> bool:
    """Whether the constructor assigns the attribute one list (or tuple) literal of `kept`
    items, and nothing else: what the check refuses to go below is what it started with."""
    init = methods.get("__init__")
    if init is None:
        return False
    values = [value for _, value in own_assignments(init, attr)]
    return (
        len(values) == 1
        and isinstance(values[0], ast.List | ast.Tuple)
        and len(values[0].elts) == kept
        and not any(isinstance(e, ast.Starred) for e in values[0].elts)
    )


def _adders(methods: Methods, attr: str, own: str) -> list[str]:
    """The public methods that add an item to the attribute, themselves or through
    methods of the class they call."""
    adds = {name for name, m in methods.items() if _item_calls(m, attr, _ADDS)}
    reach = reached_calls(methods)
    found = [
        name
        for name in methods
        if (name in adds or reach[name] & adds)
        and name not in (own, "__init__")
        and user_called(name)
        and not methods[name].decorator_list
    ]
    return same_kind(methods, own, found)


def _solution(
    target: str,
    member: str,
    adders: list[str],
    attr: str,
    condition: ConditionView,
    methods: Methods,
    facts: Facts,
) -> Solution:
    owner = target.rpartition(".")[2]
    by = " or ".join(code(f"{m}()") for m in adders)
    each = "each" if len(adders) > 1 else "it"
    text = (
        f"Pair each {code(member)} on your {code(owner)} object with an earlier {by}: "
        f"{each} adds an item to {code('self.' + attr)} and {code(member)} takes one off, "
        f"so a {code(member)} made more often than {by} finds only what the object started "
        f"with, and refuses it."
    )
    return Solution(
        text=text,
        condition=condition.text,
        kind="input",
        fix=call_first_fix(target, member, adders, methods, facts),
    )
