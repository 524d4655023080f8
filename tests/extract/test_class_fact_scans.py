"""The scans of a class's text that the class facts make, each read as one pattern of
literal start or one jump from mark to mark (main tried `s` and `f` at every character for
the assignments, read each line three times for the attributes' classes, and a call's
arguments a character at a time): the same answers as those readings."""

from __future__ import annotations

import re

import pytest

from errdex.extract.attr_classes import _LINE
from errdex.extract.field_defaults import _MAX_CALL, call_arguments
from errdex.extract.init_attrs import _assignments, _starts_statement, assignment_counts

# the one pattern of both alternatives (a loop's target after the assignments')
_BOTH = re.compile(
    r"self\.(\w++)(?=[ \t]*(?:[-+*/%|&^@]|//|\*\*|<<|>>)?=(?![=}])"
    r"|()[ \t]*(?:(:)[^=\n]*|,[^\n]*?(?<![=!<>]))=(?!=))"
    r"|for[ \t]+\(?self\.(\w+)"
)


def _counts_of_one_pattern(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for match in _BOTH.finditer(text):
        if match[2] is not None and not _starts_statement(text, match.start(), match[3] is None):
            continue
        attr = match[1] or match[4]
        counts[attr] = counts.get(attr, 0) + 1
    return counts


# a loop's target whose name holds `self`, one whose line assigns after it, a name ending
# in `for` before a target, assignments in a comment and a string, tuples, annotations
ASSIGNING = [
    "class A:\n    def f(self):\n        for self.myself.x in y: z = 1\n        self.x = 2\n",
    "for self.a, b in pairs: c = 1\nself.a = 2\n(self.b, self.c) = 1, 2\n",
    "self.xfor self.y = 1\n# wait for self.z = 3\nx = 'for self.w = 1'\n",
    "self.a: int = 1\nf(a=self.b, c=1)\nbuf[self.i:] = b\nself.d += 1\nself.e == 2\n",
    "for (self.i) in range(3):\n    self.i = 4\nfor\tself.j in k: pass\nself.k = {self.l=}\n",
    "x = [\n    self.a,\n    self.b] = y\nself.c, d = 1, 2\nfor\n",
]


@pytest.mark.parametrize("text", ASSIGNING)
def test_the_assignments_are_those_one_pattern_of_both_alternatives_finds(text: str) -> None:
    expected = _counts_of_one_pattern(text)
    assert list(assignment_counts(text).items()) == list(expected.items())
    assert [m.start() for m in _assignments(text)] == [m.start() for m in _BOTH.finditer(text)]


_ANNOTATED = re.compile(
    r"\n[ \t]*self\.(\w+)[ \t]*:[ \t]*([^=\n#]+?)[ \t]*(?:=(?!=)|#|\r?$)", re.MULTILINE
)
_CALLED = re.compile(
    r"\n[ \t]*self\.(\w+)[ \t]*(?::[^=\n]*)?=[ \t]*((?:self\.)?[A-Za-z_][\w.]*)\(", re.MULTILINE
)
_NONE = re.compile(
    r"\n[ \t]*self\.(\w+)[ \t]*(?::[^=\n]*)?=[ \t]*None[ \t]*(?:#[^\n]*)?\r?$", re.MULTILINE
)

# an annotated call and an annotated None on one line, `None(`, `==`, a comment after the
# value, `\r\n` line ends, a line of `self.` with no name, a form feed before `self`
LINES = [
    "\nclass A:\n    def f(self):\n        self.a: Foo = Foo(1)\n        self.b: Bar = None\n",
    "\nself.c = None(1)\nself.d == make(2)\nself.e = None  # none yet\r\nself.f: 'Foo'\r\n",
    "\nself.\n\x0cself.g = h(\n  self.i = self.make(x)\n\tself.j: int # j\nself.k = a.b.c(",
]


@pytest.mark.parametrize("text", LINES)
def test_one_pass_over_the_lines_reads_what_three_passes_read(text: str) -> None:
    annotated, called, nones = [], [], []
    for match in _LINE.finditer(text):
        if match["annotation"] is not None:
            annotated.append((match["attr"], match["annotation"]))
        if match["callee"] is not None:
            called.append((match["attr"], match["callee"], match.end("callee") + 1))
        if match["none"] is not None:
            nones.append(match["attr"])
    assert annotated == [(m[1], m[2]) for m in _ANNOTATED.finditer(text)]
    assert called == [(m[1], m[2], m.end()) for m in _CALLED.finditer(text)]
    assert nones == [m[1] for m in _NONE.finditer(text)]


def _char_by_char(text: str, start: int) -> str:
    depth, quote = 0, ""
    end = min(len(text), start + _MAX_CALL)
    at = start
    while at < end:
        char = text[at]
        if quote:
            if char == "\\":
                at += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return text[start:at] + ")"
            depth -= 1
        elif char == "#":
            newline = text.find("\n", at)
            at = end if newline < 0 else newline
            continue
        at += 1
    return text[start:end]


# brackets in strings and comments, escaped quotes, a backslash last, an unclosed string,
# a comment with no newline after it, a call longer than what is read
CALLS = [
    "f(a, (b), [c], {d: 'e)'}, \"f(\", g) + 1",
    "f('it\\'s )', \"a \\\" )\", # ) in a comment\n x)",
    "f(a, 'b\\",
    "f(a, 'unclosed ) \n b)",
    "f(a, # comment ) at the end",
    "f(" + "x, " * 400 + "y)",
    "f(a]b)",
]


@pytest.mark.parametrize("text", CALLS)
def test_a_calls_arguments_are_those_a_reading_char_by_char_gives(text: str) -> None:
    for start in range(len(text) + 1):
        assert call_arguments(text, start) == _char_by_char(text, start), start
