"""Attributes a constructor keeps from its parameters (`ClassFact.attr_from`).

`LLMEngine.__init__(self, ..., log_stats)` runs `self.log_stats = log_stats`: a check of
`self.log_stats` in any method tests what the caller gave the constructor, so the linker
can follow it to the callers (`link.value_flow`). Read from the constructor's text, which
the skeleton may have blanked: a line at the body's own indentation (no `if`, loop, `try`
or `with` around it) that assigns `self.X` one parameter as it is (`x`, `(x)`, `bool(x)`) or
negated (`not x`), where the class's text assigns `self.X` nowhere else and the constructor
never rebinds the parameter. Anything else (a default, a conversion, arithmetic) keeps no
fact: what the attribute holds is then not the caller's value, or not its truth.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from errdex.lazy_re import lazy_compile

# `self.x = x`, `self.x: bool = not x`, `self.x = bool(x)`, `self.x = (not x)`, a comment
# allowed after it; nothing else on the line
_KEPT = lazy_compile(
    r"self\.(?P<attr>\w+)[ \t]*(?::[^=\n]*)?=[ \t]*"
    r"(?:\((?P<paren>[^()\n]*)\)|bool\((?P<truth>\w+)\)|(?P<plain>(?:not[ \t]+)?\w+))"
    r"[ \t]*(?:#[^\n]*)?\r?\n?$"
)
_NEGATED = lazy_compile(r"^[ \t]*not[ \t]+(\w+)[ \t]*$")
_NAME = lazy_compile(r"^[ \t]*(\w+)[ \t]*$")
# every `self.x = ...` (augmented, annotated, in a tuple target) and `for self.x in`
_SELF_ASSIGNED = lazy_compile(
    r"self\.(\w++)(?=[ \t]*(?::[^=\n]*)?(?:[-+*/%|&^@]|//|\*\*|<<|>>)?=(?!=)"
    r"|[ \t]*,[^\n]*?(?<![=!<>])=(?!=))"
    r"|for[ \t]+\(?self\.(\w+)"
)
_MAX_LINES = 400  # lines of a constructor read; a longer one keeps no fact


def attributes_from_params(cls: ast.ClassDef, lines: Sequence[str]) -> dict[str, str]:
    """`attr` → `param` or `not param`, for the class's own `__init__` (see the module)."""
    init = next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is None or not init.body:
        return {}
    args = init.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}
    if not params:
        return {}
    body = _block(lines, init.body[0].lineno, _indent(lines[init.lineno - 1]))
    if body is None or any("setattr(" in line for line in body):
        return {}
    indent = _indent(body[0]) if body else ""
    found: dict[str, str] = {}
    for line in body:
        if not line.startswith(indent) or line[len(indent) : len(indent) + 5] != "self.":
            continue
        match = _KEPT.match(line, len(indent))
        if match is None:
            continue
        value = match["paren"] if match["paren"] is not None else match["truth"] or match["plain"]
        negated = _NEGATED.match(value)
        given = negated or _NAME.match(value)
        if given is None or given[1] not in params or given[1] == "not":
            continue
        found.setdefault(match["attr"], f"not {given[1]}" if negated else given[1])
    if not found:
        return {}
    whole = _block(lines, cls.lineno + 1, _indent(lines[cls.lineno - 1]), len(lines))
    text = "".join(whole or ())
    counts: dict[str, int] = {}
    for assigned, looped in _SELF_ASSIGNED.findall(text):
        attr = assigned or looped
        counts[attr] = counts.get(attr, 0) + 1
    return {
        attr: value
        for attr, value in found.items()
        if counts.get(attr) == 1 and not _rebound(body, value.rpartition(" ")[2])
    }


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _block(
    lines: Sequence[str], first: int, outer: str, most: int = _MAX_LINES
) -> list[str] | None:
    """The lines from `first` (counted from 1) while they are blank, comments, or indented
    deeper than `outer`: a body as its text has it. None past `most` lines."""
    out: list[str] = []
    for line in lines[first - 1 :]:
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and len(_indent(line)) <= len(outer):
            break
        out.append(line)
        if len(out) > most:
            return None
    while out and not out[0].strip():
        out.pop(0)
    return out


def _rebound(body: list[str], name: str) -> bool:
    """Whether the body may bind `name` anywhere: an assignment on a line that starts a
    statement (one inside brackets, `f(\n    name=x,`, is a keyword given), a loop, `as`,
    `:=`, `del`."""
    assigned = re.compile(
        rf"[ \t]*(?:\*?\w+[ \t]*,[ \t]*)*\*?{name}[ \t]*(?:,[^=\n]*)?"
        rf"(?::[^=\n]*)?(?:[-+*/%|&^@]|//|\*\*|<<|>>)?=(?!=)"
    )
    elsewhere = re.compile(
        rf"\b(?:for|as)[ \t]+(?:\w+[ \t]*,[ \t]*)*{name}\b|\b{name}[ \t]*:=|\bdel[ \t]+{name}\b"
    )
    depth = 0
    for line in body:
        if name in line and (
            (depth == 0 and assigned.match(line)) or elsewhere.search(line) is not None
        ):
            return True
        code = _STRINGS.sub("", line.partition("#")[0] if "#" in line else line)
        depth = max(depth + sum(_OPENS.get(c, 0) for c in code), 0)
    return False


# a string literal on one line: its brackets are none of the code's
_STRINGS = lazy_compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_OPENS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
