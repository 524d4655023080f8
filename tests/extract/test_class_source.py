"""One top-level class of a file parsed alone, with its decorators and the file's lines."""

from __future__ import annotations

import textwrap

from errdex.extract.class_source import class_at

CLASSES = textwrap.dedent(
    '''
    import dataclasses

    @dataclasses.dataclass
    class Base:
        size: int = 0

        def run(self):
            raise NotImplementedError

    class Child(Base):
        def run(self):
            return """
    a string whose line starts at the margin
    """

    class Other(
        Base,
    ):
        pass
    # a comment at the margin

        def late(self):
            return 1
    '''
)


def header(name: str) -> int:
    return CLASSES.index(f"\nclass {name}") + 1


def test_a_top_level_class_is_parsed_alone_with_its_decorators_and_the_files_lines() -> None:
    found = class_at(CLASSES, header("Base"))
    assert found is not None
    assert (found.name, found.lineno, found.end_lineno, len(found.decorator_list)) == (
        "Base",
        5,
        9,
        1,
    )


def test_a_line_at_the_margin_inside_the_class_cuts_it_short_and_nothing_is_read() -> None:
    assert class_at(CLASSES, header("Child")) is None


def test_a_closing_bracket_or_a_comment_at_the_margin_does_not_end_the_class() -> None:
    found = class_at(CLASSES, header("Other"))
    assert found is not None
    assert (found.lineno, found.end_lineno) == (17, 24)
    assert [f.name for f in found.body if hasattr(f, "name")] == ["late"]
