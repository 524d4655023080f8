"""A message that opens on a name the user chose and says it shadows or conflicts with
another: the way out is another name for it; a message about something else that
conflicts names no name to change."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "models/__init__.py": "",
    "models/fields.py": """
        import warnings


        def collect(cls, bases, annotations):
            for name in annotations:
                for base in bases:
                    if hasattr(base, name):
                        warnings.warn(
                            f'Field name "{name}" in "{cls.__qualname__}" shadows an '
                            f'attribute in parent "{base.__qualname__}"',
                            UserWarning,
                        )


        class Manager:
            STATE = "_state"

            def install(self, key, value):
                if key in (self.STATE,):
                    raise KeyError(
                        f"{key!r}: requested attribute name conflicts with "
                        f"instrumentation attribute of the same name."
                    )
                setattr(self, key, value)


        class Marker:
            def __init__(self):
                self.modules = set()

            def add_item(self, item):
                if item.__module__ in self.modules:
                    warnings.warn(
                        "This registry already contains a class with the same class name "
                        "and module name as %s.%s, and will be replaced in the lookup table."
                        % (item.__module__, item.__name__)
                    )
                self.modules.add(item.__module__)

            def add_table(self, table):
                if table.name in self.modules:
                    warnings.warn(
                        "This registry already contains a table with the same schema as %s"
                        % (table.name,)
                    )


        def flush(state, existing):
            if existing is not None:
                warnings.warn(
                    f"New instance {state} with identity key {existing} conflicts with "
                    f"persistent instance {existing}"
                )
        """,
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", FILES)


def test_a_field_that_shadows_a_parent_attribute_is_renamed(models: Store) -> None:
    page = page_with_message(models, "models", "Field name")
    assert page.solutions[0].text == (
        "Rename the field “NAME” in your code to one that nothing else uses: as the "
        'message says, it shadows an attribute in parent "BASE".'
    )


def test_a_name_that_leads_its_message_is_renamed_as_written(models: Store) -> None:
    page = page_with_message(models, "models", "{key!r}: requested attribute name")
    assert page.solutions[0].text.startswith(
        "Rename the attribute “KEY” in your code to one that nothing else uses: as the "
        "message says, it conflicts with instrumentation attribute of the same name"
    )


def test_what_conflicts_without_a_name_is_no_rename(models: Store) -> None:
    page = page_with_message(models, "models", "New instance")
    assert not any(s.text.startswith("Rename") for s in page.solutions)


def test_a_class_declared_twice_under_one_holder_is_declared_once(models: Store) -> None:
    page = page_with_message(models, "models", "This registry already contains a class")
    assert page.solutions[0].text == (
        "Declare the class “MODULE.ITEM” only once under this registry (a `class` statement "
        "run again, in a function called twice or a module reloaded, declares it again), or "
        "give one of the two another name: as the message says, it already contains a class "
        "with the same class name and module name as MODULE.ITEM."
    )


def test_the_same_thing_other_than_a_name_is_no_declaration_to_repeat(models: Store) -> None:
    page = page_with_message(models, "models", "This registry already contains a table")
    assert not any(s.text.startswith("Declare") for s in page.solutions)
