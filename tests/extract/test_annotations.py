"""The classes an annotation names (`extract.shapes.annotated_classes`), and the one class
a receiver's annotation says it is (`annotated_class`)."""

from __future__ import annotations

import ast

import pytest

from errdex.extract.shapes import annotated_class, annotated_classes


def annotation(source: str) -> ast.expr:
    return ast.parse(source, mode="eval").body


@pytest.mark.parametrize(
    ("written", "classes", "one"),
    [
        ("Foo", ["Foo"], "Foo"),
        ("mod.Foo", ["mod.Foo"], "mod.Foo"),
        ("Foo | None", ["Foo"], "Foo"),
        ("Optional[Foo]", ["Foo"], "Foo"),
        ("typing.Optional['Foo']", ["Foo"], "Foo"),
        ("Union[Foo, None]", ["Foo"], "Foo"),
        ("'Foo | None'", ["Foo"], "Foo"),
        # either class: each is named, none is the one class
        ("Foo | Bar", ["Foo", "Bar"], None),
        ("t.Union[Foo, Bar, None]", ["Foo", "Bar"], None),
        ("Optional[Foo | Bar]", ["Foo", "Bar"], None),
        # a builtin or a generic is no class of the version, and admits other values
        ("Foo | int", ["Foo"], None),
        ("list[Foo]", [], None),
        ("int", [], None),
        ("typing.Any", [], None),
        ("'not an annotation('", [], None),
    ],
)
def test_the_classes_an_annotation_names(written: str, classes: list[str], one: str) -> None:
    assert annotated_classes(annotation(written)) == classes
    assert annotated_class(annotation(written)) == one
