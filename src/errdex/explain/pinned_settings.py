"""A setting the object's own constructor pins to one value: changing it is no way out.

vllm's `ExtractHiddenStatesProposer.__init__` sets `self.num_speculative_tokens` from
`--speculative-config` and asserts it equals 1 (`assert self.num_speculative_tokens == 1`);
its `propose` asserts `num_speculative_tokens == self.num_speculative_tokens`. A way out
"change `num_speculative_tokens` in the JSON of `--speculative-config`" moves the attribute,
and any value but the one the constructor demands fails there, before the site is reached:
with the object built, the setting already holds that value. Only a statement of the
constructor's own body (no `if` picks it) pins: `assert self.X == C` (or `is`), or `if
self.X != C: raise`, with C a literal.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.item_fields import own_init
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_name

__all__ = ["pinned_line", "pinned_sentence"]

_KEY = "pinned_settings"


def pinned_line(solution: Solution, facts: Facts) -> int | None:
    """The line of the site class's `__init__` that pins the attribute the solution's
    setting sets (`self.X`, the knob's name behind it) to one value, or None."""
    if solution.kind != "setting" or solution.knob is None:
        return None
    knob = next((k for k in facts.knobs if k.name == solution.knob), None)
    behind = knob.behind if knob is not None else None
    if behind is None or not behind.startswith("self.") or behind.count(".") != 1:
        return None
    site = facts.stored.site
    if site.function.rpartition(".")[2] == "__init__":
        return None  # the constructor itself: its own order decides, not read here
    pins = facts.once(_KEY, lambda: _pins(facts))
    pin = pins.get(behind)
    if pin is None:
        return None
    facts.memo.setdefault(_KEY + ":said", {})[solution.knob] = (behind, *pin)
    return pin[0]


def pinned_sentence(facts: Facts) -> str | None:
    """What "What it means" says of a setting left out as pinned, or None."""
    said: dict[str, tuple[str, int, str]] = facts.memo.get(_KEY + ":said", {})
    if not said:
        return None
    knob, (behind, line, value) = next(iter(said.items()))
    owner = facts.stored.site.function.rpartition(".")[0]
    # Only the part of the setting that moves the attribute is ruled out: a JSON-valued
    # flag may have other keys that avoid the check, so the flag as a whole is not named.
    return (
        f"Changing {code(behind)} through {code(knob)} is no way out: "
        f"{code(owner + '.__init__')} requires it to be {code(value)} (line {line}), so any "
        "other value of it fails there first."
    )


def _pins(facts: Facts) -> dict[str, tuple[int, str]]:
    """`self.X` → the line where the site class's own `__init__` requires it to equal a
    literal, in a statement of its body no test picks, and the literal."""
    owner = facts.own_class()
    init = own_init(owner) if owner is not None else None
    found: dict[str, tuple[int, str]] = {}
    for statement in init.body if init is not None else []:
        test: ast.expr | None = None
        if isinstance(statement, ast.Assert):
            test = statement.test
        elif (
            isinstance(statement, ast.If)
            and not statement.orelse
            and statement.body
            and isinstance(statement.body[0], ast.Raise)
        ):
            test = _negated(statement.test)
        pinned = _pinned(test) if test is not None else None
        if pinned is not None:
            found.setdefault(pinned[0], (statement.lineno, pinned[1]))
    return found


def _negated(test: ast.expr) -> ast.expr | None:
    """The test an `if ...: raise` requires to hold: `self.X != C` → `self.X == C`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = {ast.NotEq: ast.Eq(), ast.IsNot: ast.Is()}.get(type(test.ops[0]))
        if op is not None:
            return ast.Compare(left=test.left, ops=[op], comparators=test.comparators)
    return None


def _pinned(test: ast.expr) -> tuple[str, str] | None:
    """`self.X == C`, `C == self.X`, `self.X is C`: `self.X` and C, a literal."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    if not isinstance(test.ops[0], ast.Eq | ast.Is):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not isinstance(right, ast.Constant):
        return None
    name = dotted_name(left)
    if name is None or not name.startswith("self.") or name.count(".") != 1:
        return None
    return name, repr(right.value)
