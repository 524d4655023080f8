"""A check that runs while Python creates the user's class (a metaclass's `__new__` or
`__init__`, a base's `__init_subclass__`, or a function only they call) tests the class's
definition: the page says which part, drops ways out phrased on what Python hands the hook,
and asks for an annotation on a body name that lacks one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

CONSTRUCTION = """
    from typing import Any


    class FieldInfo:
        pass


    class ModelMetaclass(type):
        def __new__(mcs, cls_name, bases, namespace, **kwargs):
            if bases and "Generic" in [b.__name__ for b in bases[:1]]:
                raise TypeError("Classes should inherit from the model before Generic")
            inspect_namespace(namespace, bases)
            cls = super().__new__(mcs, cls_name, bases, namespace, **kwargs)
            check_fields(cls)
            return cls


    def inspect_namespace(namespace, bases):
        raw_annotations = namespace.get("__annotations__", {})
        for var_name, value in list(namespace.items()):
            if var_name.startswith("__"):
                continue
            elif var_name not in raw_annotations:
                if isinstance(value, FieldInfo):
                    raise TypeError(f"Field {var_name!r} requires a type annotation")


    def check_fields(cls):
        if getattr(cls, "root", None) is not None and len(cls.__dict__) > 40:
            raise ValueError("A root model takes no other fields")


    class Registered:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            if not getattr(cls, "backend", None):
                raise TypeError(f"{cls.__name__} must set a class-level `backend` string")


    registry = {}


    class Fixture:
        def __init_subclass__(cls):
            if not registry:
                raise RuntimeError("the registry is not set up")


    def _setup_base(cls):
        reg = cls.__dict__.get("registry", None)
        if reg is not None and not isinstance(reg, dict):
            raise TypeError("a 'registry' attribute must be a dict")


    class Declarative:
        def __init_subclass__(cls, **kw):
            if Declarative in cls.__bases__:
                _setup_base(cls)
            super().__init_subclass__(**kw)


    class Tracked(Declarative):
        def __init_subclass__(cls, **kw):
            cls.tracked = True
            super().__init_subclass__(**kw)


    class Plain:
        def __new__(cls, value):
            if value is None:
                raise ValueError("a value is required")
            return super().__new__(cls)
    """


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"models/__init__.py": "", "models/construction.py": CONSTRUCTION}
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", files)


_OF_YOURS = "but the check is of a class you define"


def test_a_body_name_without_an_annotation_asks_for_one(models: Store) -> None:
    page = page_with_message(models, "models", "Field {var_name!r} requires")
    assert page.solutions[0].text.startswith(
        "Give the name the message names a type annotation in the body of your class "
        "(`name: SomeType = value` in place of `name = value`)"
    )


def test_a_metaclass_check_of_the_bases_says_so(models: Store) -> None:
    page = page_with_message(models, "models", "Classes should inherit")
    assert _OF_YOURS in page.what_it_means
    assert "`ModelMetaclass.__new__` runs when Python creates a class whose metaclass is" in (
        page.what_it_means
    )
    assert "(its bases)" in page.what_it_means
    assert "worth reporting" not in page.what_it_means
    # the hook's own argument is no call a user writes
    assert not any("the argument `bases`" in s.text for s in page.solutions)


def test_a_function_the_metaclass_calls_with_the_new_class(models: Store) -> None:
    page = page_with_message(models, "models", "A root model takes no other fields")
    assert "`check_fields` is reached from `ModelMetaclass.__new__`" in page.what_it_means
    assert "(its attributes, its own and those it inherits)" in page.what_it_means


def test_init_subclass_tests_the_users_subclass(models: Store) -> None:
    page = page_with_message(models, "models", "{cls.__name__} must set")
    # the attribute it tests is the way out (`class_attributes.py`)
    assert page.solutions[0].text.startswith(
        "Give your class (a subclass of `Registered`) a class attribute `backend`"
    )
    assert "worth reporting" not in page.what_it_means


def test_a_hook_testing_other_state_is_not_the_users_class(models: Store) -> None:
    page = page_with_message(models, "models", "the registry is not set up")
    assert _OF_YOURS not in page.what_it_means


def test_a_plain_classs_new_is_no_class_statement(models: Store) -> None:
    page = page_with_message(models, "models", "a value is required")
    assert _OF_YOURS not in page.what_it_means


def test_a_subclass_hook_handing_on_through_super_leaves_the_bases_hook(models: Store) -> None:
    # `Tracked.__init_subclass__` calls the base's through `super()`: the chain of callers
    # has ended at `Declarative.__init_subclass__`, a hook, already
    page = page_with_message(models, "models", "a 'registry' attribute must be a dict")
    assert page.solutions[0].text.startswith(
        "Make `registry` in the body of your class (a subclass of `Declarative`) an instance "
        "of `dict`, or leave it out"
    )
