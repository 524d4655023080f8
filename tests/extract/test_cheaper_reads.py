"""Reads of the extraction made cheaper (issue 19) give what the slower reads gave: each
shortcut checked against the reading it stands for."""

from __future__ import annotations

import ast
import functools
import re
import textwrap

import pytest

from errdex.extract import definitions
from errdex.extract.init_attrs import _lines_holding
from errdex.extract.shapes import _wrapper_is, annotated_class
from errdex.extract.source_text import source_of
from errdex.extract.templates import TemplateBuilder
from errdex.extract.walk_state import _memoized_source
from errdex.extract.walker import Walker
from errdex.facts import MessageTemplate, Placeholder

WRAPPERS = [
    "Optional",
    "typing.Optional",
    "t9.Optional",
    "_t.Optional",
    "é.Optional",
    "a.b.Optional",
    ".Optional",
    "xOptional",
    "Optionals",
    "t.Optional.x",
    "",
    "Union",
    "typing.Union",
    "typing_extensions.Union",
    "a.b.Union",
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("name", ["Optional", "Union"])
def test_a_wrapper_is_told_as_its_pattern_tells_it(wrapper: str, name: str) -> None:
    pattern = re.compile(rf"(?:\w+\.)?{name}$")
    assert _wrapper_is(wrapper, name) == bool(pattern.match(wrapper))


def test_an_annotation_through_a_module_s_optional_names_its_class() -> None:
    parsed = ast.parse("typing.Optional[Runner]", mode="eval").body
    nested = ast.parse("a.b.Optional[Runner]", mode="eval").body
    assert annotated_class(parsed) == "Runner"
    assert annotated_class(nested) is None  # `a.b.Optional` is none of typing's


BODY = [
    "        self.x = x\n",
    "        y = x + 1  # x again, x\n",
    "        if x:\n",
    "            self.y = y\n",
    "        xx = 2\n",
    "        return x",
]


@pytest.mark.parametrize("name", ["x", "y", "self", "xx", "return", "z", "x + 1"])
def test_the_lines_holding_a_name_are_those_a_test_of_each_line_finds(name: str) -> None:
    body = list(BODY)
    assert list(_lines_holding(body, name)) == [n for n, line in enumerate(body) if name in line]
    other = [line.replace("x", "q") for line in body]  # another body: not the last one read
    assert list(_lines_holding(other, name)) == [n for n, line in enumerate(other) if name in line]


@pytest.mark.parametrize(
    "parts",
    [("",), ("text",), (Placeholder("x"),), ("a", "b"), ("a", "", Placeholder("x"), "b", "c")],
)
def test_a_template_of_one_part_is_made_as_of_several(parts: tuple[str | Placeholder, ...]) -> None:
    merged: list[str | Placeholder] = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        elif part != "":
            merged.append(part)
    assert MessageTemplate.of(*parts) == MessageTemplate(tuple(merged))


SOURCE = textwrap.dedent(
    """
    def check(items, limit):
        raise ValueError(
            f"too many: {len(items)} > {limit}"
            + describe(items,
                       limit)
        )
    """
)


def test_a_builder_reading_sources_through_the_walk_s_memo_builds_the_same_template() -> None:
    tree = ast.parse(SOURCE)
    raised = tree.body[0].body[0]
    assert isinstance(raised, ast.Raise) and isinstance(raised.exc, ast.Call)
    message = raised.exc.args[0]
    remembered = functools.partial(_memoized_source, SOURCE, {})
    alone = TemplateBuilder(SOURCE).build(message)
    shared = TemplateBuilder(SOURCE, source_of=remembered).build(message)
    assert shared == alone
    assert alone is not None and "describe(items, limit)" in alone.text
    assert remembered(message.right) == source_of(SOURCE, message.right)


INIT_WITHOUT_WORDS = textwrap.dedent(
    """
    class Plain:
        def __init__(self, a, b=2):
            self.a = a
            if b:
                self.b = b
    """
)
INIT_PASSING_UP = textwrap.dedent(
    """
    class Failed(Exception):
        def __init__(self, path):
            self.path = path
            super().__init__(f"cannot read {path}")
    """
)


def test_an_init_whose_body_holds_no_word_is_not_read_statement_by_statement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []
    real = definitions.DefinitionRecorder._may_pass_message

    def counted(self: definitions.DefinitionRecorder, node: ast.AST) -> bool:
        asked.append(getattr(node, "lineno", 0))
        return real(self, node)

    monkeypatch.setattr(definitions.DefinitionRecorder, "_may_pass_message", counted)
    plain = Walker(INIT_WITHOUT_WORDS, {})
    plain.run(ast.parse(INIT_WITHOUT_WORDS))
    assert asked == []
    assert plain.definitions.classes[0].message is None
    passing = Walker(INIT_PASSING_UP, {})
    passing.run(ast.parse(INIT_PASSING_UP))
    assert asked  # a body with the words: each statement told apart as before
    fact = passing.definitions.classes[0]
    assert fact.message is not None and fact.message.text == "cannot read {path}"
    assert [a.source for a in fact.super_args] == ['f"cannot read {path}"']
