"""A JSON flag's fix keeps the fields the path holds at one value.

A fix that gives one field of a flag's JSON (`--spec-config '{"rejection_sample_method":
"standard"}'`) replaces the user's whole JSON when run as written. Where the path to the
check holds another field of the same object at one value (`draft_sample_method ==
'probabilistic'`, which an earlier check of the same function asks for), the user's JSON has
it, and the fix without it meets that earlier check: the fix keeps it, before and after.
"""

from __future__ import annotations

import ast
import json
import re

import msgspec

from errdex.explain.context import Facts
from errdex.explain.expanded import expanded
from errdex.explain.knob_actions import knob_action
from errdex.explain.page import ConditionView, Solution

# A one-object JSON in a fix line: quoted for the shell, or as a config file's value.
_JSON = re.compile(r"(?P<open>'|: )(?P<json>\{[^{}]*\})(?=' |'$|$)", re.M)


def with_kept_fields(solution: Solution, facts: Facts) -> Solution:
    """The solution with its JSON fix keeping the fields the path holds (unchanged when
    none does, or the fix is no one-field JSON)."""
    fix = solution.fix
    if solution.kind != "setting" or fix is None or solution.condition is None:
        return solution
    field = _one_field(fix.after)
    base = _object_of(solution.condition, field) if field is not None else None
    if base is None:
        return solution
    kept = _held_fields(base, solution.knob or "", facts)
    if not kept:
        return solution

    def merged(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            try:
                given = json.loads(match["json"])
            except ValueError:
                return match.group(0)
            if not isinstance(given, dict) or len(given) != 1 or base[1] not in given:
                return match.group(0)
            extra = {k: v for k, v in kept.items() if k not in given}
            return match["open"] + json.dumps({**extra, **given})

        return _JSON.sub(one, text)

    after = merged(fix.after)
    if after == fix.after:
        return solution
    names = ", ".join(f"`{k}` at `{v!r}`" for k, v in kept.items())
    them = "it" if len(kept) == 1 else "them"
    note = f"{fix.note} It keeps {names}: the path to this check holds {them}, so yours has {them}."
    new = msgspec.structs.replace(
        fix,
        before=merged(fix.before),
        after=after,
        config=merged(fix.config) if fix.config else fix.config,
        note=note.strip(),
    )
    return msgspec.structs.replace(solution, fix=new)


def _one_field(text: str) -> str | None:
    """The key of the one-key JSON the fix line writes, if it writes one."""
    for match in _JSON.finditer(text):
        try:
            given = json.loads(match["json"])
        except ValueError:
            continue
        if isinstance(given, dict) and len(given) == 1:
            return str(next(iter(given)))
    return None


def _object_of(condition: str, field: str) -> tuple[str, str] | None:
    """(the object, the field) of the condition's one attribute named as the JSON's key."""
    node = _parse(condition)
    if node is None:
        return None
    found = {
        ast.unparse(n.value)
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute) and n.attr == field
    }
    return (found.pop(), field) if len(found) == 1 else None


def _held_fields(base: tuple[str, str], knob: str, facts: Facts) -> dict[str, object]:
    """The other fields of the same object the path holds equal to a literal."""
    found: dict[str, object] = {}
    for condition in facts.held:
        node = _parse(condition.text)
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        if not isinstance(node.ops[0], ast.Eq | ast.Is):
            continue
        left, right = node.left, node.comparators[0]
        if not isinstance(left, ast.Attribute) or not isinstance(right, ast.Constant):
            continue
        if ast.unparse(left.value) != base[0] or left.attr == base[1]:
            continue
        if not isinstance(right.value, str | int | float | bool):
            continue  # not None either: a field left unset, which the user's JSON need not name
        other = f"{ast.unparse(left)} != {ast.unparse(right)}"
        if _json_key(left.attr, other, condition, knob, facts):
            found[left.attr] = right.value
    return found


def _json_key(field: str, other: str, condition: ConditionView, knob: str, facts: Facts) -> bool:
    """Whether the flag takes the field as a key of its JSON (not a property of the
    class): a way out of the field at another value would set it there."""
    opposite = ConditionView(
        text=other, test=other, kind=condition.kind, holds=True, line=condition.line
    )
    action = knob_action(opposite, facts.knobs) or knob_action(
        expanded(opposite, facts), facts.knobs
    )
    return (
        action is not None
        and action.knob == knob
        and action.keyword is not None
        and repr(field) in action.keyword
    )


def _parse(text: str) -> ast.expr | None:
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
