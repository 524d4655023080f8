"""The kinds of value an if/elif chain on one argument lets through, said in a user's words.

`_build_auth(auth)` returns for `None`, a `tuple`, an `Auth` or a callable and raises in its
`else`: the raise's path skips each of those tests' branches (`auth is None`,
`isinstance(auth, tuple)`, ..., `callable(auth)`). What a user must pass is any one of the
kinds the chain lets into a branch, not the last test negated ("make `auth` callable").
Only a chain of such type tests on the one argument is read, and only when none of their
branches raises as well (a branch that raises for `str` does not accept `str`).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable

from errdex.explain.context import Facts
from errdex.explain.input_nodes import is_call
from errdex.explain.plain import code, listed
from errdex.explain.refused_ways import if_at
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

_CHAIN = frozenset(
    {ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE, ConditionKind.EARLY_EXIT}
)
CALLABLE = "callable"
NONE = "None"


def accepted_kinds(facts: Facts, name: str) -> list[str] | None:
    """The types (as written), `callable` and `None` that the path's checks on `name`
    accept, in the code's order; None unless every condition reading `name` is an `if` of
    the site's function testing such a kind, whose body the path skips and which does not
    raise (it lets that kind through), and the raise's own test is one of them."""
    kinds: list[str] = []
    on_it = [c for c in facts.held if name in _names(c.test)]
    if not on_it or on_it[-1] is not facts.held[-1]:
        return None  # the raise's own test is on something else
    for at, condition in enumerate(on_it, 1):
        if condition.kind not in _CHAIN:
            return None
        if condition.holds:
            # the raise's own `if not isinstance(x, (A, B)):` lets only those past it
            node = parse_expression(condition.test)
            negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
            inner = node.operand if isinstance(node, ast.UnaryOp) and negated else None
            found = _kinds(ast.unparse(inner), name) if inner is not None else None
            if found is None or at != len(on_it) or NONE in found:
                return None
            kinds.extend(k for k in found if k not in kinds)
            continue
        found = _kinds(condition.test, name)
        if found is None:
            return None
        guard = if_at(facts, condition.line)
        test = parse_expression(condition.test)
        if guard is None or test is None or ast.dump(guard.test) != ast.dump(test):
            return None
        if any(isinstance(n, ast.Raise) for s in guard.body for n in ast.walk(s)):
            return None  # that branch refuses the kind too (`if isinstance(x, str): raise`)
        kinds.extend(k for k in found if k not in kinds)
    return kinds if any(k != NONE for k in kinds) else None


def kinds_text(kinds: list[str], qualified: Callable[[str], str]) -> str:
    """ "`None`, a `tuple`, an instance of `httpx.Auth` or a callable" (the classes as
    one: "an instance of one of `A`, `B`"): `qualified` gives a class's path as its user
    imports it."""
    builtin = [k for k in kinds if isinstance(getattr(builtins, k, None), type)]
    classes = [code(qualified(k)) for k in kinds if k not in (NONE, CALLABLE, *builtin)]
    words = ["`None`"] if NONE in kinds else []
    words.extend(f"{'an' if k[0] in 'aeiou' else 'a'} {code(k)}" for k in builtin)
    if len(classes) == 1:
        words.append(f"an instance of {classes[0]}")
    elif classes:
        words.append(f"an instance of one of {', '.join(classes)}")
    if CALLABLE in kinds:
        words.append("a callable")
    return listed(words, "or")


def _kinds(test: str, name: str) -> list[str] | None:
    """What one test lets into its branch: `isinstance(x, (A, B))` → A, B; `callable(x)`
    → callable; `x is None` → None."""
    node = parse_expression(test)
    if isinstance(node, ast.Compare) and _is_none(node, name):
        return [NONE]
    if not isinstance(node, ast.Call) or not node.args or ast.unparse(node.args[0]) != name:
        return None
    if is_call(node, "callable") and len(node.args) == 1:
        return [CALLABLE]
    if not (is_call(node, "isinstance") and len(node.args) == 2):
        return None
    kinds = node.args[1]
    elements = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    if not all(isinstance(e, ast.Name | ast.Attribute) for e in elements):
        return None  # a tuple held in a constant: its members are not read here
    return [ast.unparse(e) for e in elements]


def _is_none(node: ast.Compare, name: str) -> bool:
    return (
        len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is)
        and ast.unparse(node.left) == name
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    )


def _names(text: str) -> set[str]:
    node = parse_expression(text)
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} if node is not None else set()
