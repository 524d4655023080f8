"""The user's declaration read back from the object: a private method's check of `self.x`,
which the class's constructor stored from its own argument as it is.

`class Link: def __init__(self, target, join=None): self.target = target; self.join =
join`, and later, when the object is put to use, `Link._resolve` raises `if self.join is not
None and self.target is None`. The attributes are what the user declared when making the
`Link`: the way out is that argument of the public call (`inputs` words it), and the check
is of the declaration, not of the program's own state (`kept_sentence`).

Offered only where nothing else can have set the attribute, and nothing else on the path
checks it:
- the site is a private method of the class itself, a class the package exports at a path of
  its own (one its users make: `exported_constructor`);
- each `self.x` the test reads is assigned once in the whole file (no `.x =` anywhere else,
  no `setattr` naming it, none with a computed name on `self`), by a statement
  `self.x = param` at the top level of the class's own `__init__`, `param` one of its
  parameters it never rebinds;
- the raise's own test is the only condition of the path that reads those attributes (no
  other guard that a changed value then meets), but for two kinds of test a value the
  check accepts passes as well: the earlier arms of the raise's own `if`/`elif` chain that
  compare the attribute with literals and do not fail (`if self.load == "inline": ...
  elif self.load == "selectin": ... elif self.load is not None: raise`: the values the
  chain takes), and a guard that reads the attribute only as true or false beside another
  test, where every literal those arms accept is true (`if self.load and self.concrete:
  raise`: the user's value, true like them, has already passed it);
- the site is a `raise`, or an `assert` with a message: a bare `assert` states what the
  code assumes its callers (or its constructor's own checks) made sure of.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.explain.chain_branches import chain_arms
from errdex.explain.context import Facts
from errdex.explain.init_values import own_init
from errdex.explain.input_nodes import free_names, literal_value
from errdex.explain.page import ConditionView
from errdex.explain.plain import code
from errdex.explain.stored_argument import plain_store, stored_once
from errdex.explain.user_call import exported_constructor
from errdex.extract.setters import param_names
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression


@dataclass(frozen=True)
class Kept:
    """An attribute the constructor stored its argument in, as it is."""

    attribute: str
    param: str
    line: int  # the line of `self.attribute = param`


def kept_arguments(facts: Facts, names: set[str]) -> list[Kept] | None:
    """Each `self.x` of `names` (a test's names) as the constructor's argument it holds,
    when all of them are (and the test is the raise's own, the only one of the path to read
    them); else None. Read once per page and test."""
    key = f"kept_argument:{sorted(names)}"
    return facts.once(key, lambda: _kept(facts, names))


def kept_sentence(facts: Facts, offered: set[str]) -> str | None:
    """What "What it means" says when a way out offered (`offered`: the conditions the
    solutions avoid) is on the raise's own test of such attributes."""
    if not facts.held or facts.held[-1].text not in offered:
        return None
    test = parse_expression(facts.held[-1].text)
    names = {n for n in free_names(test) if n.startswith("self.")} if test is not None else set()
    kept = kept_arguments(facts, names) if names else None
    made = exported_constructor(facts) if kept else None
    if not kept or made is None:
        return None
    parts = [
        f"{code('self.' + k.attribute)} is the {code(k.param)} you pass {code(made)}, kept as "
        f"it is (line {k.line})"
        for k in kept
    ]
    return (
        f"{'; '.join(parts)}: the check is of your declaration, read back when the object "
        "is put to use, not of the program's own state."
    )


def _kept(facts: Facts, names: set[str]) -> list[Kept] | None:
    site = facts.stored.site
    if site.kind is SiteKind.ASSERT and site.message is None:
        # what the code assumes its callers or its constructor made sure of (`assert
        # self.concrete` in a method the package calls only for a concrete mapper; an
        # `assert x is not None` the constructor's own check already refused), no message
        # to the user about a declaration
        return None
    owner, _, method = site.function.rpartition(".")
    if not owner or "." in owner or not method.startswith("_") or method.startswith("__"):
        return None
    attributes = sorted(n[5:] for n in names if n.startswith("self."))
    if not attributes or any("." in a for a in attributes) or not facts.held:
        return None
    text = facts.source_text
    if text is None or not _only_own_test(facts, attributes):
        return None
    if not all(stored_once(text, a) for a in attributes):
        # set elsewhere too (another method, another object's `.x =`), or by a name the
        # code computes (`setattr(self, attr, ...)` in a loop): not sure
        return None
    init = own_init(facts, owner)
    if init is None or exported_constructor(facts) is None:
        return None
    params = param_names(init)
    found: list[Kept] = []
    for attribute in attributes:
        stored = plain_store(init, attribute, params)
        if stored is None:
            return None
        found.append(Kept(attribute, *stored))
    return found


def _only_own_test(facts: Facts, attributes: list[str]) -> bool:
    """Whether the raise's own test is the one condition of the path that reads any of
    the attributes (and reads them all)."""
    wanted = {f"self.{a}" for a in attributes}
    own = facts.held[-1]
    others: list[tuple[ConditionView, ast.expr | None]] = []
    for condition in facts.conditions:
        test = parse_expression(condition.text)
        read = set(free_names(test)) if test is not None else {condition.text}
        touches = bool(read & wanted) or any(f"self.{a}" in condition.text for a in attributes)
        if condition is own or (condition.text == own.text and condition.line == own.line):
            if not wanted <= read:
                return False
        elif touches:
            others.append((condition, test))
    if not others:
        return True
    arms = _chain_arms(facts, own, wanted)  # read only where another test reads them
    accepted = [v for values in arms.values() for v in values]
    for condition, test in others:
        if condition.line in arms and not condition.holds:
            continue  # a value the chain takes instead
        if not (accepted and all(accepted) and _truth_only(test, wanted)):
            return False
    return True


def _chain_arms(facts: Facts, own: ConditionView, wanted: set[str]) -> dict[int, list[object]]:
    """The earlier arms of the `if`/`elif` chain whose last test is `own` (`chain_arms`),
    each a test of `wanted` against literals whose body does not fail, by line, with the
    literals it takes; empty when any earlier arm is not such a test."""
    arms: dict[int, list[object]] = {}
    for earlier in chain_arms(facts.conditions, own):
        test = parse_expression(earlier.test)
        values = _compared(test, wanted) if test is not None else None
        if values is None or facts.read.other_branch_fails(earlier.line, False):
            return {}
        arms[earlier.line] = values
    return arms


def _compared(test: ast.expr, wanted: set[str]) -> list[object] | None:
    """The literals `self.x == "a"` or `self.x in ("a", "b")` takes, `self.x` of `wanted`."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    if ast.unparse(test.left) not in wanted:
        return None
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq):
        items = [right]
    elif isinstance(test.ops[0], ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
        items = list(right.elts)
    else:
        return None
    if not all(isinstance(i, ast.Constant) for i in items):
        return None
    return [literal_value(i) for i in items]


def _truth_only(test: ast.expr | None, wanted: set[str]) -> bool:
    """Whether `test` reads each of `wanted` only as a whole operand of `and`/`or` (or its
    `not`), beside another test: its outcome is the same for any true value."""
    if test is None or not isinstance(test, ast.BoolOp):
        return False
    others = False
    for value in test.values:
        bare = (
            value.operand
            if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not)
            else value
        )
        if ast.unparse(bare) in wanted:
            continue
        if set(free_names(value)) & wanted:
            return False
        others = True
    return others
