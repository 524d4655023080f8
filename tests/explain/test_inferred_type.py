"""A message saying the type of the user's attribute or field could not be inferred asks
for an annotation on it, where the code reads annotations; a message about another failure
to infer, or a type inferred from data, names none."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_with_message

from errdex.store import Store

FILES = {
    "models/__init__.py": "",
    "models/fields.py": """
        class ConfigError(Exception):
            pass


        UNDEFINED = object()


        class Field:
            def __init__(self, name, annotation, default):
                self.name = name
                self.type_ = annotation
                self.default = default

            def prepare(self):
                if self.default is not None and self.type_ is UNDEFINED:
                    self.type_ = type(self.default)
                if self.type_ is UNDEFINED:
                    raise ConfigError(f'unable to infer type for attribute "{self.name}"')

            def shape(self, rows):
                if not rows:
                    raise ConfigError(f"unable to infer the shape of {self.name}")
        """,
    "models/frames.py": """
        def schema(records):
            types = {}
            for name in records[0]:
                values = [r[name] for r in records if r[name] is not None]
                if not values:
                    raise TypeError(f'unable to infer type for field "{name}"')
                types[name] = type(values[0])
            return types
        """,
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", FILES)


def test_an_attribute_whose_type_is_not_inferred_is_annotated(models: Store) -> None:
    page = page_with_message(models, "models", "unable to infer type for attribute")
    assert page.solutions[0].text == (
        "Give the attribute “NAME” a type annotation where your class declares it "
        "(`x: Optional[int] = None` in place of `x = None`): as the message says, its type "
        "could not be inferred."
    )


def test_another_thing_not_inferred_asks_for_no_annotation(models: Store) -> None:
    page = page_with_message(models, "models", "unable to infer the shape")
    assert not any("type annotation" in s.text for s in page.solutions)
    assert offered(page) == [
        "Pass a non-empty (true) value for the argument `rows` of `Field.shape`."
    ]


def test_a_type_inferred_from_data_asks_for_no_annotation(models: Store) -> None:
    # the column's values are all `None`: there is no class declaring the field to annotate
    page = page_with_message(models, "models", "unable to infer type for field")
    assert not any("type annotation" in s.text for s in page.solutions)
    assert offered(page) == ["Give `schema` another `records`"]
