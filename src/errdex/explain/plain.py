"""Conditions in plain words: `not self.use_v2` becomes "`self.use_v2` is false".

Only shapes whose meaning is plain from the syntax are put in words; anything else keeps
its Python (wrapped in backticks), so no sentence says more than the code.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence

from errdex.facts import Condition, ConditionKind
from errdex.link.expression_texts import parse_expression

_BOOLISH = re.compile(
    r"(?:^|_)(?:is|has|use|uses|enable|enabled|disable|disabled|should|can|allow|allowed|"
    r"supports?|needs?|requires?|with|do|does|skip|force|strict|debug|verbose|eager)(?:_|$)"
    r"|(?:^|_)(?:enabled|disabled|ok|valid|available|supported|required|active)$",
    re.I,
)
_COMPARE_WORDS: dict[type[ast.cmpop], str] = {
    ast.Eq: "equals",
    ast.NotEq: "does not equal",
    ast.Lt: "is less than",
    ast.LtE: "is at most",
    ast.Gt: "is greater than",
    ast.GtE: "is at least",
    ast.In: "is in",
    ast.NotIn: "is not in",
}
_MAX_CODE = 90  # longer expressions are cropped in words (the Python stays in full)


def code(text: str) -> str:
    """Inline code, cropped when long."""
    text = " ".join(text.split())
    if len(text) > _MAX_CODE:
        text = text[: _MAX_CODE - 1] + "…"
    return f"`{text}`"


def listed(words: Sequence[str], last: str = "and") -> str:
    """ "`a`, `b` and `c`": the words in a sentence's list, `last` before the last."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def your_values(words: Iterable[str]) -> str:
    """ "`A`, `B` stand for your own values.": the words a fix writes where the user puts
    their own values, each once ("" for none)."""
    named = list(dict.fromkeys(words))
    if not named:
        return ""
    own = "stands for your own value" if len(named) == 1 else "stand for your own values"
    return f"{', '.join(code(w) for w in named)} {own}."


def placeholder_words(command: str) -> list[str]:
    """The words of a command after the program's that the user fills in (written in
    capitals: `MODEL_TAG`)."""
    return [w for w in command.split()[1:] if w.isupper()]


def command_placeholders(command: str) -> str:
    """ " `MODEL_TAG` stands for your own value.": the command's placeholder words said
    for the user; "" for none."""
    words = placeholder_words(command)
    return f" {your_values(words)}" if words else ""


def setting_noun(setting: str) -> str:
    """`--tool-call-parser` → "tool call parser": a setting's name as words."""
    return setting.lstrip("-").replace("-", " ").replace("_", " ").lower()


def caught_text(clause: str) -> str:
    """What an `except` clause catches, as written (`(KeyError, ValueError)` of
    `except (KeyError, ValueError) as e`); "" for a bare `except`."""
    return clause.removeprefix("except").split(" as ")[0].strip()


def caught_names(clause: str) -> set[str]:
    """The classes an `except` clause names, without their modules (`HTTPError` of
    `except (requests.HTTPError, KeyError)`); none for a bare `except`."""
    caught = caught_text(clause).strip(" ()")
    return {n.strip().rpartition(".")[2] for n in caught.split(",")} if caught else set()


def plain_condition(condition: Condition) -> str | None:
    """The condition as it holds on the path, in words; None when words add nothing."""
    kind = condition.kind
    text = condition.statement
    if kind is ConditionKind.LOOP and text.startswith("for "):
        target, _, iterable = text[4:].partition(" in ")
        return f"for an item {code(target)} of {code(iterable)}" if iterable else None
    if kind is ConditionKind.NO_MATCH:  # (what no item passed: `ran_out.py`)
        return f"the loop {code(condition.test)} ran out without returning"
    if kind is ConditionKind.EXCEPT:
        caught = text.removeprefix("except").strip()
        caught = caught.split(" as ")[0].strip()
        return f"an exception {code(caught)} was caught" if caught else "an exception was caught"
    if kind is ConditionKind.MATCH:
        subject, _, pattern = text.partition(" matches ")
        return f"{code(subject)} matches the pattern {code(pattern)}" if pattern else None
    node = parse_expression(text)
    return _words(node) if node is not None else None


def _words(node: ast.expr) -> str | None:
    if isinstance(node, ast.BoolOp):
        parts = [_words(v) or code(ast.unparse(v)) for v in node.values]
        if isinstance(node.op, ast.And):
            return " and ".join(parts)
        return "either " + " or ".join(parts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _falsy(node.operand)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _compare(node.left, node.ops[0], node.comparators[0])
    return _truthy(node)


def _truthy(node: ast.expr) -> str | None:
    shown = code(ast.unparse(node))
    if isinstance(node, ast.Call):
        special = _special_call(node, positive=True)
        return special or f"{shown} returns a true value"
    if isinstance(node, ast.Name | ast.Attribute):
        if _looks_boolean(node):
            return f"{shown} is true"
        return f"{shown} is set (not empty, zero or None)"
    return None


def _falsy(node: ast.expr) -> str | None:
    shown = code(ast.unparse(node))
    if isinstance(node, ast.Call):
        special = _special_call(node, positive=False)
        return special or f"{shown} returns a false value"
    if isinstance(node, ast.Name | ast.Attribute):
        if _looks_boolean(node):
            return f"{shown} is false"
        return f"{shown} is empty, zero or None"
    if isinstance(node, ast.BoolOp | ast.Compare):
        inner = _words(node)
        return f"it is not the case that {inner}" if inner else None
    return None


def _special_call(node: ast.Call, *, positive: bool) -> str | None:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else None
    args = node.args
    if name == "isinstance" and len(args) == 2:
        verb = "is" if positive else "is not"
        return f"{code(ast.unparse(args[0]))} {verb} an instance of {code(ast.unparse(args[1]))}"
    if name == "hasattr" and len(args) == 2:
        verb = "has" if positive else "has no"
        return f"{code(ast.unparse(args[0]))} {verb} attribute {code(ast.unparse(args[1]))}"
    if name == "callable" and len(args) == 1:
        verb = "is" if positive else "is not"
        return f"{code(ast.unparse(args[0]))} {verb} callable"
    if name in ("any", "all") and len(args) == 1 and isinstance(args[0], ast.GeneratorExp):
        gen = args[0]
        if len(gen.generators) == 1 and not gen.generators[0].ifs:
            comp = gen.generators[0]
            target, iterable = ast.unparse(comp.target), ast.unparse(comp.iter)
            element = _words(gen.elt) or code(ast.unparse(gen.elt))
            if name == "any":
                quantifier = "some" if positive else "no"
                return f"for {quantifier} {code(target)} in {code(iterable)}: {element}"
            quantifier = "every" if positive else "not every"
            return f"for {quantifier} {code(target)} in {code(iterable)}: {element}"
    if name == "len" and len(args) == 1:
        return None
    return None


def _compare(left: ast.expr, op: ast.cmpop, right: ast.expr) -> str | None:
    lhs, rhs = code(ast.unparse(left)), code(ast.unparse(right))
    if isinstance(op, ast.Is | ast.IsNot):
        negative = isinstance(op, ast.IsNot)
        if isinstance(right, ast.Constant) and right.value is None:
            return f"{lhs} is not None" if negative else f"{lhs} is None"
        if isinstance(right, ast.Constant) and isinstance(right.value, bool):
            value = str(right.value)
            return f"{lhs} is not {value}" if negative else f"{lhs} is {value}"
        return f"{lhs} is not the same object as {rhs}" if negative else f"{lhs} is {rhs}"
    if (
        isinstance(left, ast.Call)
        and isinstance(left.func, ast.Name)
        and left.func.id == "len"
        and len(left.args) == 1
    ):
        items = code(ast.unparse(left.args[0]))
        if isinstance(right, ast.Constant) and right.value == 0:
            if isinstance(op, ast.Eq):
                return f"{items} is empty"
            if isinstance(op, ast.NotEq | ast.Gt):
                return f"{items} is not empty"
        word = _COMPARE_WORDS.get(type(op))
        return f"the length of {items} {word} {rhs}" if word else None
    word = _COMPARE_WORDS.get(type(op))
    if word is None:
        return None
    if isinstance(op, ast.In | ast.NotIn):
        word = "is one of" if isinstance(op, ast.In) else "is not one of"
        if isinstance(left, ast.Constant) and isinstance(left.value, str):
            word = "occurs in" if isinstance(op, ast.In) else "does not occur in"
    return f"{lhs} {word} {rhs}"


def _looks_boolean(node: ast.Name | ast.Attribute) -> bool:
    name = node.id if isinstance(node, ast.Name) else node.attr
    return bool(_BOOLISH.search(name))
