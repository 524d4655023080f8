"""A flag left out that still gives a value: "Do not pass `--x` in any form" is no way out.

vllm's `throughput.py` warns "Both --prefix-len and --random-prefix-len are specified" when
`args.prefix_len is not None`, and declares `add_argument("--prefix-len", type=int,
default=0)`: left out, the flag gives `0`, never None, so leaving it out changes nothing.
A solution that leaves a flag out for its value to be None is dropped when every
`add_argument` call of the file declaring the flag writes a literal default other than
None (`default=0`, `default="auto"`), or the flag's known default is `True` or `False`. A
call with `nargs` (`nargs="?"` gives its `const`, None unless written, when the flag is
bare), a default that is a name or a call, a `set_defaults(...)` of the file, or a file not
kept keeps the solution. Only the declaring call is read, memoised per file content.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from typing import Any

import msgspec

from errdex.explain.across_pages import AcrossPages
from errdex.explain.context import Facts
from errdex.explain.page import Knob, Solution
from errdex.explain.sliced import COMPARE
from errdex.extract.field_defaults import call_arguments
from errdex.facts import KnobKind
from errdex.link.expression_texts import parse_expression
from errdex.store.base import Store, StoredSite

__all__ = ["left_out_value", "never_none_flag"]

_NONE_FORM = "Do not pass `{}` in any form"
_FOR_NONE = re.compile(r"\(so that `([A-Za-z_]\w*)` is None\)")
# (the version's revision, file, flag) -> whether every declaration defaults to a value (a
# revision is the hash of the version's content: the file's text is the same for every page)
_SEEN: AcrossPages[bool] = AcrossPages(4096)


def never_none_flag(store: Store, stored: StoredSite, facts: Facts, solution: Solution) -> bool:
    """Whether `solution` leaves out a flag (for its value to be None) that, left out,
    gives a default other than None."""
    knob = _left_out(facts, solution)
    if knob is None or not knob.name.startswith("--"):
        return False
    if knob.default in ("True", "False"):
        return True
    flag, file = knob.name, knob.file
    if not file:
        return False

    def declared() -> bool:
        text = store.file_text(stored.version_id, file)
        return _declared_with_value(text, flag) if text else False

    return _SEEN.kept((stored.revision, file, flag), declared)


def _left_out(facts: Facts, solution: Solution) -> Knob | None:
    """The flag `solution` says to leave out in any form, or None."""
    flag = solution.knob
    if flag is None or not solution.text.startswith(_NONE_FORM.format(flag)):
        return None
    return next((k for k in facts.knobs if k.kind == KnobKind.FLAG and k.name == flag), None)


def _declared_with_value(text: str, flag: str) -> bool:
    """Whether every `add_argument` call of `text` declaring `flag` writes a literal
    default other than None (and no `nargs`), with at least one such call."""
    if "set_defaults(" in text:
        return False
    defaults = 0
    for quote in "\"'":
        at = text.find(f"{quote}{flag}{quote}")
        while at != -1:
            start = text.rfind("add_argument(", 0, at)
            if start == -1:
                return False
            opened = start + len("add_argument(")
            call = call_arguments(text, opened)
            if opened + len(call) <= at:
                return False  # the flag's name is not among this call's arguments
            if not _literal_default(call):
                return False
            defaults += 1
            at = text.find(f"{quote}{flag}{quote}", at + 1)
    return defaults > 0


def _literal_default(call: str) -> bool:
    """Whether the call's arguments write `default=` a literal other than None, and no
    `nargs`."""
    try:
        tree = ast.parse("_(" + call, mode="eval")
    except (SyntaxError, ValueError):
        return False
    node = tree.body
    if not isinstance(node, ast.Call):
        return False
    keywords = {k.arg: k.value for k in node.keywords}
    if None in keywords or "nargs" in keywords or "default" not in keywords:
        return False
    try:
        value = ast.literal_eval(keywords["default"])
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return value is not None


# a test of one name against a literal, as `operator` makes it
_TESTS: dict[type[ast.cmpop], Callable[[Any, Any], object]] = {
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    **COMPARE,
}


def left_out_value(facts: Facts, solution: Solution) -> Solution | None:
    """ "Do not pass `--x` in any form (so that `v` is None)" for a flag whose known default
    is a literal other than None, True and False (`0`, `'auto'`): left out, `v` is that
    value, not None. Said so ("left out, `v` is `0`, so that `v < 0` does not hold") when
    the value makes a held test of `v` alone false; else dropped, as its value may fail the
    check too. Any other solution is returned as it is."""
    knob = _left_out(facts, solution)
    if knob is None or knob.default is None or knob.default in ("None", "True", "False"):
        return solution
    try:
        value = ast.literal_eval(knob.default)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return solution  # another class's field, not a value
    found = _FOR_NONE.search(solution.text)
    if found is None:
        return solution
    said, name = found.group(0), found.group(1)
    for held in facts.held:
        if _false_with(held.text, name, value):
            reason = (
                f"(left out, `{name}` is `{knob.default}`, so that `{held.text}` does not hold)"
            )
            return msgspec.structs.replace(solution, text=solution.text.replace(said, reason))
    return None


def _false_with(text: str, name: str, value: object) -> bool:
    """Whether the test `text` (`name` against literals, `and`/`or`/`not` of such) is false
    when `name` holds `value`."""
    node = parse_expression(text)
    return node is not None and _truth(node, name, value) is False


def _truth(node: ast.expr, name: str, value: object) -> bool | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _truth(node.operand, name, value)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        parts = [_truth(part, name, value) for part in node.values]
        decisive = isinstance(node.op, ast.Or)  # the value that decides alone
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    op = _TESTS.get(type(node.ops[0]))
    sides = [_side(part, name, value) for part in (node.left, node.comparators[0])]
    if op is None or _UNKNOWN in sides:
        return None
    try:
        return bool(op(*sides))
    except (TypeError, ValueError, ArithmeticError):
        return None  # a comparison the value does not take


_UNKNOWN = object()


def _side(node: ast.expr, name: str, value: object) -> object:
    if isinstance(node, ast.Name):
        return value if node.id == name else _UNKNOWN
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _UNKNOWN
