"""A file refused for the mode it was opened in: the user's `open()` call is the way out.

httpx's multipart upload raises "Multipart file uploads must be opened in binary mode, not
text mode" when `isinstance(fileobj, io.TextIOBase)`: the file object is one the user
opened (`open(path)` is text mode by default) and handed on. The message says which mode
the code takes; the condition says it tests the file's mode (an instance of the text or the
binary I/O classes). Both together are the way out, phrased on the call the user makes:
"Open the file in binary mode (`open(path, "rb")`, or `"wb"` to write)". Only when the
message names the mode the condition asks for: a check of the mode with a message about
something else says nothing of what to open.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.page import ExampleFix, Solution
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

# The I/O classes whose instances are files opened in text mode, and in binary mode.
_TEXT = frozenset({"TextIOBase", "TextIOWrapper", "TextIO"})
_BINARY = frozenset(
    {"BufferedIOBase", "RawIOBase", "BufferedReader", "BufferedWriter", "BinaryIO", "FileIO"}
)
_MODULES = frozenset({"io", "typing"})
# The mode the message names: "in binary mode", "opened in text mode".
_MODE = re.compile(r"\b(?P<mode>binary|text)\s+mode\b", re.I)
_FILE = "file"  # the name the fix gives the file object
_OPEN = {
    "binary": 'Open the file in binary mode (`open(path, "rb")`, or `"wb"` to write)',
    "text": 'Open the file in text mode (`open(path, "r")`, or `"w"` to write)',
}


def file_mode_solution(facts: Facts) -> Solution | None:
    """ "Open the file in binary mode ..." for a check that refuses a file opened in the
    other mode, whose message names the mode it takes; else None."""
    message = facts.stored.site.message
    if message is None:
        return None
    named = {m["mode"].lower() for m in _MODE.finditer(message.text)}
    if not named:
        return None
    for condition in facts.held:
        if condition.kind == ConditionKind.EARLY_EXIT:
            continue
        wanted = _wanted_mode(condition.text)
        if wanted is None or wanted not in named:
            continue
        first = _MODE.search(message.text)
        if first is None or first["mode"].lower() != wanted:
            continue  # "binary mode, not text mode": the mode named first is the one taken
        return Solution(
            text=f"{_OPEN[wanted]}, as the message says: “{message.text.strip()}”",
            condition=condition.text,
            kind="input",
            advice=True,
            fix=ExampleFix(
                before=f"{_FILE} = open(PATH)"
                if wanted == "binary"
                else f'{_FILE} = open(PATH, "rb")',
                after=f'{_FILE} = open(PATH, "rb")'
                if wanted == "binary"
                else f"{_FILE} = open(PATH)",
                note=f"`PATH` is your file's path; pass `{_FILE}` on as before.",
            ),
        )
    return None


def _wanted_mode(text: str) -> str | None:
    """The mode a condition that holds on the path to the raise refuses the other of:
    "binary" for `isinstance(f, io.TextIOBase)` or `not isinstance(f, io.BufferedIOBase)`,
    "text" the other way round; None for any other condition."""
    node = parse_expression(text)
    negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    if negated:
        node = node.operand  # type: ignore[union-attr]
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
    ):
        return None
    kinds = {_mode_of(c) for c in _classes(node.args[1])}
    if len(kinds) != 1 or None in kinds:
        return None
    refused = kinds.pop()
    if negated:  # `not isinstance(f, io.TextIOBase)`: a text file is what it takes
        return refused
    return "binary" if refused == "text" else "text"


def _classes(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]


def _mode_of(node: ast.expr) -> str | None:
    """ "text" for `io.TextIOBase` (or `TextIOBase`, `typing.TextIO`), "binary" for the
    binary ones, None for any other class."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id not in _MODULES:
            return None
        name = node.attr
    elif isinstance(node, ast.Name):
        name = node.id
    else:
        return None
    if name in _TEXT:
        return "text"
    return "binary" if name in _BINARY else None
