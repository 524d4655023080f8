"""A class's body and a constructor's lines as the class facts read them (`init_attrs`):
found by one search of the file's text (main read them line by line, stripping each)."""

from __future__ import annotations

import ast
from collections.abc import Sequence

import pytest

from errdex.extract.init_attrs import ClassText, block_of, indent_of
from errdex.extract.source_text import source_lines


def _line_by_line(lines: Sequence[str], first: int, outer: str, most: int) -> list[str] | None:
    """The lines from `first` while they are blank, comments, or indented deeper than
    `outer`, the leading blank ones dropped; None past `most`: each line read in turn."""
    out: list[str] = []
    for line in lines[first - 1 :]:
        if len(line) - len(line.lstrip(" \t")) <= len(outer):
            stripped = line.strip()
            if stripped and stripped[0] != "#":
                break
        out.append(line)
        if len(out) > most:
            return None
    while out and not out[0].strip():
        out.pop(0)
    return out


# lines a block's end is easy to misread on: a comment and a string's continuation at
# column 0, blank lines of other whitespace (a form feed, a no-break space), tabs, a line
# of spaces only at the end with no newline after it
SOURCES = [
    "class A:\n    x = 1\n\n# a comment at column 0\n    y = 2\nz = 3\n",
    "class A:\n\n  \x0c\n    def f(self):\n\treturn '''\nat column 0\n'''\n\nclass B: pass\n",
    "if x:\n\tclass A:\n\t\tdef f(self):\n\t\t\tpass\n\t  \xa0\n\t# c\n\tz = 1\n",
    "class A:\n    def f(self):\n        pass\n   ",
    "class A:\n    x = 1\n\x0c    y = 2\n",
    "class A:\n    x = 1\r\n    y = 2\rz = 3\n",
    "class A:\n    x = 1\n    y = 2",
    "class A: pass\n",
]


@pytest.mark.parametrize("source", SOURCES)
def test_a_block_is_the_lines_a_reading_line_by_line_gives(source: str) -> None:
    lines = source_lines(source)
    for first in range(1, len(lines) + 2):
        for outer in ("", "  ", "\t", "    "):
            for most in (400, 1):
                expected = _line_by_line(lines, first, outer, most)
                assert block_of(source, first, outer, most) == expected, (first, outer, most)


@pytest.mark.parametrize("source", SOURCES)
def test_a_class_text_is_its_block_after_the_class_line(source: str) -> None:
    lines = source_lines(source)
    for number in range(1, len(lines) + 1):
        cls = ast.ClassDef(name="A", bases=[], keywords=[], body=[], decorator_list=[])
        cls.lineno = number
        block = _line_by_line(lines, number + 1, indent_of(lines[number - 1]), len(lines))
        assert ClassText(cls, source).text == "".join(block or ()), number
