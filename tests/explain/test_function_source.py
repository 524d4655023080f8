"""One function of a file read alone, with the file's line numbers."""

from __future__ import annotations

import ast
import textwrap

import pytest

from errdex.explain.context import (
    Facts,
    at_margin,
    class_around,
    function_at,
    function_span,
    top_block_at,
)
from errdex.extract.source_text import dedented
from errdex.reading_facts import SourceRead

SOURCE = textwrap.dedent(
    """
    class Config:
        def first(self):
            return 1

        def check(
            self,
            size=None,
        ):
            if size is None:
                size = 4
            if size != 4:
                raise ValueError("size")

        def after(self):
            return 2
    """
)


def test_the_function_holding_a_line_is_parsed_alone_with_the_files_lines() -> None:
    found = function_at(SOURCE, "check", 13)
    assert found is not None
    assert (found.name, found.lineno, found.end_lineno) == ("check", 6, 13)
    # the line of its `def` finds it too; a line outside it, or another name, does not
    assert function_at(SOURCE, "check", 6) is not None
    assert function_at(SOURCE, "check", 16) is None
    assert function_at(SOURCE, "missing", 13) is None
    assert function_at(None, "check", 13) is None


def test_the_nearest_def_above_the_line_is_the_one_found() -> None:
    nested = "def check():\n    def check():\n        raise A\n    raise B\n"
    assert function_span(nested, "check", 3) == (1, 3)  # the inner one
    assert function_span(nested, "check", 1) == (0, 4)
    # a module-level line has no `def` of that name above it
    assert function_span("x = 1\nraise C\n", "<module>", 2) is None


def test_lines_are_counted_as_the_file_is_split() -> None:
    # a form feed starts a line of its own for `str.splitlines`, as the page counts lines
    text = "import os\n\x0c\ndef check(\n    a,\n):\n    raise A\n"
    assert function_span(text, "check", 7) == (3, 7)
    assert function_span(text.replace("\x0c", ""), "check", 6) == (2, 6)


def test_only_matches_that_start_a_line_are_kept_with_their_line() -> None:
    text = "class A(B):\n    x = 'a class C(D)'\n\nclass E(F):\n    pass\n"
    found = [(line, m.group(1)) for line, m in at_margin(r"class\s+(\w+)\(", text)]
    assert found == [(0, "A"), (3, "E")]


CLASSES = textwrap.dedent(
    '''
    @decorated
    class Base:
        size = 0


    class Child(Base):
        HELP = """
    a text whose line starts at the margin
    """


    class Other(
        Base,
    ):
        pass
    '''
)


def test_a_top_level_class_is_read_alone_or_from_the_whole_file() -> None:
    facts = Facts(stored=None, conditions=[], variants=[], callers=[], caller_guards=[],
                  knobs=[], bindings=[], tests=[], read=SourceRead())  # fmt: skip
    facts.source_text = CLASSES
    base = facts.top_class("Base")
    assert base is not None and (base.lineno, len(base.decorator_list)) == (3, 1)
    # a line at the margin inside the class: its lines cannot be cut, the file is parsed
    child = facts.top_class("Child")
    assert child is not None and child.lineno == 7
    assert facts.subclass_names("Base") == ["Child", "Other"]
    assert facts.top_class("Missing") is None


BRANCHED = textwrap.dedent(
    """
    if TYPE_CHECKING:
        Day = date
    else:

        class Day(date):
            @classmethod
            def validate(cls, value):
                return value

    class After:
        pass
    """
)


def test_the_class_holding_a_line_is_parsed_alone_at_any_depth() -> None:
    found = class_around(BRANCHED, "Day", 9)
    assert found is not None
    assert (found.name, found.lineno, found.end_lineno) == ("Day", 6, 9)
    # a line past its body, or another name, finds none
    assert class_around(BRANCHED, "Day", 12) is None
    assert class_around(BRANCHED, "After", 9) is None


def test_a_header_names_the_whole_word_and_a_name_may_be_any_identifier() -> None:
    source = textwrap.dedent(
        """
        def checked(x):
            return x

        async def check(x):
            # check(x) is not a header
            raise ValueError(x)

        def cafe\u0301(x):
            raise ValueError(x)
        """
    )
    assert function_span(source, "check", 7) == (4, 8)  # not `checked`, nor the comment
    assert function_span(source, "checked", 3) == (1, 4)
    assert function_span(source, "cafe\u0301", 10) == (8, 10)  # a combining mark
    assert function_span(source, "missing", 10) is None


def test_a_top_level_block_is_parsed_alone_unless_its_lines_cannot_be_told() -> None:
    source = textwrap.dedent(
        """
        def helper(x):
            if x:
                pass
        # a comment at the margin
            else:
                raise ValueError(x)

        TEXT = '''
        def fake():
            if y:
        '''
        """
    )
    found = top_block_at(source, 3)
    assert isinstance(found, ast.FunctionDef) and found.end_lineno == 7  # past the comment
    assert top_block_at(source, 11) is None  # in a string: does not parse alone


@pytest.mark.parametrize(
    "lines",
    [
        ["    def f(x):", "        return x", "", "  \t ", '        y = """', "a", '"""'],
        ["    def f(x):", "\t\treturn x"],  # a tab where the header has spaces
        ["\tdef f(x):", "\t\treturn x", "\t"],
        ["  def f():", "      pass", "    "],  # a blank line holding more than the margin
        ["    def f():", "        s = 1\x0c"],
        ["    def f():", "\x0c        pass"],  # a form feed before the indentation
        ["def f():", "    pass"],  # no margin
        ["    ", "    x = 1"],  # the first line blank
        ["  x = 1", " y = 2"],  # a line dedented below the first
        [],
    ],
)
def test_a_block_is_dedented_as_textwrap_dedents_it(lines: list[str]) -> None:
    assert dedented(lines) == textwrap.dedent("\n".join(lines))
