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
  other guard that a changed value then meets);
- the site is a `raise`, or an `assert` with a message: a bare `assert` states what the
  code assumes its callers (or its constructor's own checks) made sure of.
"""

from __future__ import annotations

from dataclasses import dataclass

from errdex.explain.context import Facts
from errdex.explain.init_values import own_init
from errdex.explain.input_nodes import free_names
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
    for condition in facts.conditions:
        test = parse_expression(condition.text)
        read = set(free_names(test)) if test is not None else {condition.text}
        touches = bool(read & wanted) or any(f"self.{a}" in condition.text for a in attributes)
        if condition is own or (condition.text == own.text and condition.line == own.line):
            if not wanted <= read:
                return False
        elif touches:
            return False
    return True
