"""A class's or a node's text read before parsing it: a rule that sees the text cannot hold
the name it looks for parses nothing."""

from __future__ import annotations

import ast
import textwrap

import pytest
from text_facts import text_facts

from errdex.explain import context, parse_cache
from errdex.explain.abstract import enforced_abstract, subclasses_note
from errdex.explain.context import may_name

SOURCE = textwrap.dedent(
    '''
    import abc


    @decorated
    class Base:
        def run(self):
            raise NotImplementedError


    class Child(Base):
        HELP = """
    a text whose line starts at the margin
    """

        def run(self):
            return self.size


    class Plain:
        def run(self):
            return 1
    # a comment at the margin after it


    x = 1
    '''
)


@pytest.fixture(autouse=True)
def _no_kept_parses() -> None:
    parse_cache.clear()  # the tests count parses


def test_may_name_is_false_only_for_an_ascii_text_without_the_word() -> None:
    assert may_name("raise NotImplementedError", "NotImplementedError")
    assert not may_name("return 1", "NotImplementedError")
    # the parser reads a compatibility form of a letter as the letter itself
    assert ast.parse("ｘ = 1").body[0].targets[0].id == "x"  # type: ignore[attr-defined]
    assert may_name("ｘ = 1", "x")


def test_a_class_whose_lines_are_one_statement_of_the_outline_is_read_alone() -> None:
    facts = text_facts(SOURCE)
    base = facts.class_text("Base")
    assert base is not None and base.startswith("@decorated\nclass Base:")
    assert "class Child" not in base and "NotImplementedError" in base
    plain = facts.class_text("Plain")
    assert plain is not None and plain.startswith("class Plain:") and "x = 1" not in plain
    assert facts.class_text("Missing") is None


def test_a_class_cut_short_by_a_line_at_the_margin_gives_the_whole_file() -> None:
    # its cut ends at the string's line, where no statement of the outline starts
    assert text_facts(SOURCE).class_text("Child") == SOURCE
    # without an outline nothing tells the cut is whole
    assert text_facts(SOURCE, outline=False).class_text("Base") == SOURCE
    # a lone carriage return ends a line for the parser, not for the outline's reading
    text = SOURCE.replace("x = 1", "x = 1\ry = 2")
    assert text_facts(text).class_text("Base") == text


def test_a_nodes_lines_with_its_decorators_may_name_a_word() -> None:
    text = "@cached(limit)\ndef run(self):\n    return self.size\n\n\ndef other():\n    pass\n"
    facts = text_facts(text)
    run, other = ast.parse(text).body
    assert facts.lines_may_name(run, "size") and facts.lines_may_name(run, "limit")
    assert not facts.lines_may_name(other, "size")
    facts.source_text = text.replace("pass", "pass\r")
    assert facts.lines_may_name(other, "size")  # lines the parser may count otherwise


def test_a_class_that_cannot_hold_the_word_is_not_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[int] = []
    real = context.class_at

    def counted(text: str, start: int) -> ast.ClassDef | None:
        parsed.append(start)
        return real(text, start)

    monkeypatch.setattr(context, "class_at", counted)
    assert subclasses_note("pkg.Plain", text_facts(SOURCE)) is None
    assert parsed == []  # no `NotImplementedError` in its lines
    assert subclasses_note("pkg.Base", text_facts(SOURCE)) is not None
    assert len(parsed) >= 1


def test_a_class_with_no_abc_is_not_parsed_for_its_abstract_methods(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[int] = []
    real = context.class_at
    monkeypatch.setattr(context, "class_at", lambda t, s: parsed.append(s) or real(t, s))

    class Site:
        function = "Base.run"
        exception = "NotImplementedError"

    class Stored:
        site = Site()

    facts = text_facts(SOURCE)
    facts.stored = Stored()  # type: ignore[assignment]
    assert enforced_abstract(facts) is None
    assert parsed == []
    abstract = SOURCE.replace("class Base:", "class Base(abc.ABC):").replace(
        "    def run(self):\n        raise",
        "    @abc.abstractmethod\n    def run(self):\n        raise",
    )
    facts = text_facts(abstract)
    facts.stored = Stored()  # type: ignore[assignment]
    assert enforced_abstract(facts) is not None
    assert len(parsed) == 1
