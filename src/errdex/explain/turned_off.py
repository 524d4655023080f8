"""A warning about the user's own setting on a machine that cannot run it, after which the code
turns that setting off itself: leave it off.

vllm's `PassConfig.__post_init__` reads

    if self.fuse_act_padding and not current_platform.is_rocm():
        logger.warning_once("Padding fusion enabled but the current platform is not ROCm. ...")
        self.fuse_act_padding = False

The check is the user's setting and the machine; the code turns the setting off right after
the warning. "Run it on ROCm" changes the machine; the step that is the user's is to leave
the setting off, which is what the code does here anyway. Read statically in the site's
function: the `if` whose body holds the warning tests `self.X` (as true) and, beside it, only
platform tests (`machine_words`); a later statement of that body assigns `self.X` False or
None.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.environment import machine_words
from errdex.explain.page import Knob, Solution
from errdex.extract.conditions import negate
from errdex.extract.shapes import self_attribute
from errdex.facts import KnobKind, SiteKind

_WARNINGS = frozenset({SiteKind.LOG, SiteKind.WARN})


def turned_off_solution(facts: Facts) -> Solution | None:
    """Leave the setting off, where the warning's `if` is the setting and the machine and the
    code turns the setting off after it (see the module's docstring); None elsewhere."""
    site = facts.stored.site
    if site.kind not in _WARNINGS or "." not in site.function:
        return None
    function = facts.site_function()
    if function is None:
        return None
    guard = _guard_of(function, site.line)
    if guard is None:
        return None
    if not isinstance(guard.test, ast.BoolOp) or not isinstance(guard.test.op, ast.And):
        return None
    parts = guard.test.values
    names = [self_attribute(p) for p in parts]
    setting = [n for n in names if n is not None]
    machine = [p for p, n in zip(parts, names, strict=True) if n is None]
    if len(setting) != 1 or not machine:
        return None
    if any(machine_words(negate(p)) is None for p in machine):
        return None
    name = setting[0]
    off = _turned_off_at(guard, name, site.line)
    if off is None:
        return None
    why = (
        f"the check at line {guard.lineno} tests it together with the machine, and the code "
        f"turns it off itself right after this warning (line {off}), so what it turns on does "
        "not run here either way."
    )
    knob = _json_key_knob(facts, name)
    if knob is not None:
        # the key as the user writes it: in the JSON of the flag whose object holds it
        key, where = f"`{knob.json_key}`", f"the JSON of `{knob.name}`"
        if knob.dict_key is not None:
            key, where = f"`{knob.dict_key}`", f"`{knob.json_key}` in {where}"
        return Solution(
            text=f"Leave {key} out of {where}, or set it to `false`, on this machine: {why}",
            knob=knob.name,
            kind="setting",
            condition=f"self.{name}",
        )
    owner = site.function.split(".")[-2]
    return Solution(
        text=f"Do not turn on `{name}` of `{owner}` on this machine (leave it False): {why}",
        kind="input",
        condition=f"self.{name}",
    )


def _json_key_knob(facts: Facts, name: str) -> Knob | None:
    """The JSON-valued flag whose object's key (or a section's key) `self.<name>` is, when
    the site's knobs hold one: the user turns the setting on there."""
    for knob in facts.knobs:
        if knob.kind != KnobKind.FLAG or knob.behind != f"self.{name}":
            continue
        if (knob.dict_key or knob.json_key) == name:
            return knob
    return None


def _guard_of(function: ast.FunctionDef, line: int) -> ast.If | None:
    """The innermost `if` whose own body holds the statement at `line`."""
    found = None
    for node in ast.walk(function):
        holds = isinstance(node, ast.If) and any(
            s.lineno <= line <= (s.end_lineno or s.lineno) for s in node.body
        )
        if holds and isinstance(node, ast.If) and (found is None or node.lineno > found.lineno):
            found = node
    return found


def _turned_off(statement: ast.stmt, name: str) -> bool:
    return (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and self_attribute(statement.targets[0]) == name
        and isinstance(statement.value, ast.Constant)
        and statement.value.value in (False, None)
    )


def _turned_off_at(guard: ast.If, name: str, line: int) -> int | None:
    """The line of the body's statement after the warning that turns `self.<name>` off."""
    after = [s for s in guard.body if s.lineno > line]
    return next((s.lineno for s in after if _turned_off(s, name)), None)
