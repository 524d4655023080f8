"""A check, while Python creates the user's class, of one attribute of it: the way out is
that attribute set in the class (given, made an instance of the class the test asks for, or
left out where the test lets an absent one pass)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

HOOKS = """
    from functools import cached_property


    class Source:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            metadata = cls.__dict__.get("metadata")
            if metadata is not None and not isinstance(metadata, cached_property):
                raise TypeError(f"{cls.__name__}.metadata must be a cached_property")


    class Backend:
        def __init_subclass__(cls, **kwargs):
            if not getattr(cls, "backend", None):
                raise TypeError(f"{cls.__name__} must set a class-level `backend` string")


    class Named:
        def __init_subclass__(cls):
            visit_name = cls.__visit_name__
            if not isinstance(visit_name, str):
                raise TypeError("__visit_name__ must be a string at the class level")


    class Labelled:
        def __init_subclass__(cls):
            if not isinstance(cls.__name__, str):
                raise TypeError("the class name is no string")


    class Plain:
        def check(cls):
            if not getattr(cls, "backend", None):
                raise TypeError("no backend on the class given")
    """


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"hooks/__init__.py": "", "hooks/base.py": HOOKS}
    yield from indexed_package(tmp_path_factory.mktemp("hooks"), "hooks", files)


def test_an_attribute_of_the_body_that_must_be_a_class_or_absent(hooks: Store) -> None:
    page = page_with_message(hooks, "hooks", "{cls.__name__}.metadata")
    assert page.solutions[0].text.startswith(
        "Make `metadata` in the body of your class (a subclass of `Source`) an instance of "
        "`cached_property`, or leave it out: the check at line "
    )


def test_an_attribute_that_must_be_set(hooks: Store) -> None:
    page = page_with_message(hooks, "hooks", "{cls.__name__} must set")
    assert page.solutions[0].text.startswith(
        "Give your class (a subclass of `Backend`) a class attribute `backend` that is set "
        "(not empty, zero or None)"
    )


def test_an_attribute_read_through_a_local(hooks: Store) -> None:
    page = page_with_message(hooks, "hooks", "__visit_name__ must be")
    assert page.solutions[0].text.startswith(
        "Make `__visit_name__` of your class (a subclass of `Named`) an instance of `str`:"
    )


def test_what_python_sets_on_every_class_is_no_way_out(hooks: Store) -> None:
    page = page_with_message(hooks, "hooks", "the class name is no string")
    assert not any("`__name__`" in s.text for s in page.solutions)


def test_a_method_that_is_no_hook_is_left_alone(hooks: Store) -> None:
    page = page_with_message(hooks, "hooks", "no backend on the class given")
    assert not any("your class" in s.text for s in page.solutions)
