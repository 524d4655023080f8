"""A check in the `__setitem__` of the mapping a metaclass's `__prepare__` returns runs on
each name the body of the user's class assigns: a name found there already is defined
twice, and renaming one definition is the way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

CONSTRUCTION = """
    import warnings


    class Proxy:
        pass


    class _NamespaceDict(dict):
        def __setitem__(self, k, v):
            existing = self.get(k, None)
            if existing and v is not existing and isinstance(existing, Proxy):
                warnings.warn(f"`{k}` overrides an existing decorator")
            return super().__setitem__(k, v)


    class _PlainDict(dict):
        def __setitem__(self, k, v):
            existing = self.get(k, None)
            if existing and v is not existing:
                warnings.warn(f"`{k}` is set twice in a plain dict")
            return super().__setitem__(k, v)


    class ModelMetaclass(type):
        @classmethod
        def __prepare__(cls, *args, **kwargs):
            return _NamespaceDict()
    """


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"models/__init__.py": "", "models/construction.py": CONSTRUCTION}
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", files)


def test_a_name_defined_twice_in_the_users_class_body(models: Store) -> None:
    page = page_with_message(models, "models", "`{k}` overrides")
    assert [s.text for s in page.solutions] == [
        "Rename one of the two definitions of `VALUE` in the body of your class (a class "
        "whose metaclass is `ModelMetaclass`): the body assigns that name twice, and this "
        "check runs on the second."
    ]


def test_a_mapping_no_metaclass_prepares_is_no_class_body(models: Store) -> None:
    page = page_with_message(models, "models", "`{k}` is set twice")
    assert not any("Rename" in s.text for s in page.solutions)
