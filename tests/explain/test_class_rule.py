"""A raise of a private function that a class-creation hook reaches (a metaclass's
`__new__`, a base's `__init_subclass__`) checks what the user declared in their class: a
message stating a rule on it ("must be", "only X is allowed", "cannot ... with") is the
way out, a change to that class; not for a message stating no rule, nor where no hook
reaches the function."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_with_message

from errdex.store import Store

MODELS = """
    class ModelMetaclass(type):
        def __new__(mcs, cls_name, bases, namespace, **kwargs):
            cls = super().__new__(mcs, cls_name, bases, namespace, **kwargs)
            _collect_fields(cls, namespace.get("__annotations__", {}))
            return cls


    def _collect_fields(cls, annotations):
        for name in annotations:
            _check_field(cls, name)


    def _check_field(cls, name):
        if getattr(cls, "is_root", False) and name != "root":
            raise NameError(f"Unexpected field {name!r}; only 'root' is allowed as a field here")
        if name in getattr(cls, "computed", ()):
            raise ValueError("you can't override a field with a computed field")
        if name in getattr(cls, "odd", ()):
            raise ValueError(f"Field {name!r} is odd")


    def _check_schema(schema):
        if not isinstance(schema, dict):
            raise TypeError("schema must be a dict")
        return schema


    def build(schema):
        return _check_schema(schema)


    class Registered:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            _register(cls)


    def _register(cls):
        if len(cls.__mro__) > 6:
            raise TypeError(f"class {cls.__name__} must not derive more than five levels down")
    """

# A check five calls down from the metaclass, in another module: further than the callers
# a page keeps (three up), reached by the linker's walk down from the hooks.
DEEP = """
    class DeepMeta(type):
        def __new__(mcs, name, bases, namespace):
            cls = super().__new__(mcs, name, bases, namespace)
            _complete(cls)
            return cls


    def _complete(cls):
        if not isinstance(cls, type):
            raise TypeError("not a class")
        _build(cls)


    def _build(cls):
        _inner(cls)


    def _inner(cls):
        from ._checks import _table_args

        _table_args(cls)
    """

DEEP_CHECKS = """
    from models.core.options import Options


    def _table_args(cls):
        _columns(cls)
        Options(cls)


    def _columns(cls):
        if getattr(cls, "columns", None) and getattr(cls, "table", None):
            raise ValueError("Can't add columns when specifying a table")
    """

# General code of another package the deep check reaches too: its users mostly call it
# themselves, with no class of theirs made.
OPTIONS = """
    class Options:
        def __init__(self, owner):
            self._validate(owner)

        def _validate(self, owner):
            if getattr(owner, "dialect_kw", None):
                raise TypeError("Argument dialect_kw is not accepted by this dialect")
    """

# The schema build handed on as a callback: `partial(gen.generate, ...)` of a local
# generator, which the handler calls back (no call of `generate` is written here).
GENERATE = """
    from functools import partial


    class GenMeta(type):
        def __new__(mcs, name, bases, namespace):
            cls = super().__new__(mcs, name, bases, namespace)
            _complete_class(cls)
            return cls


    class _Handler:
        def __init__(self, generate):
            self._generate = generate


    def _complete_class(cls):
        gen = _Generator(cls)
        handler = _Handler(partial(gen.generate, strict=False))
        if handler is None:
            raise TypeError("no handler")
        return cls.__get_schema__(cls, handler)


    class _Generator:
        def __init__(self, cls):
            self.cls = cls

        def generate(self, tp, strict=True):
            return self._field(tp)

        def _field(self, tp):
            self._alias(self.cls.alias_generator, tp)
            self._tuple(tp)
            self._signature(tp)

        def _alias(self, alias_generator, name):
            alias = alias_generator(name)
            if not isinstance(alias, str):
                raise TypeError(
                    f"alias_generator {alias_generator} must return str, not {alias.__class__}"
                )

        def _tuple(self, tp):
            if len(getattr(tp, "items", ())) > 2:
                raise TypeError("Variable tuples can only have one type")

        def _signature(self, tp):
            if getattr(tp, "mode", None) == "odd":
                mode = tp.mode
                raise TypeError(f"Unrecognized field_validator function signature for {tp}: {mode}")
    """


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {
        "models/__init__.py": "",
        "models/_construction.py": MODELS,
        "models/_deep.py": DEEP,
        "models/_checks.py": DEEP_CHECKS,
        "models/_generate.py": GENERATE,
        "models/core/__init__.py": "",
        "models/core/options.py": OPTIONS,
    }
    yield from indexed_package(tmp_path_factory.mktemp("class_rule"), "models", files)


_CHANGE = "Change the definition of your class"


def test_only_x_is_allowed_under_a_metaclass(models: Store) -> None:
    page = page_with_message(models, "models", "Unexpected field")
    first = page.solutions[0].text
    assert first.startswith(_CHANGE)
    assert "only 'root' is allowed as a field here”" in first
    assert "reached from `ModelMetaclass.__new__`" in first
    assert "a class whose metaclass is `ModelMetaclass`" in first


def test_cannot_with_under_a_metaclass(models: Store) -> None:
    page = page_with_message(models, "models", "you can't override a field")
    assert page.solutions[0].text.startswith(_CHANGE)


def test_must_be_under_init_subclass(models: Store) -> None:
    page = page_with_message(models, "models", "class {cls.__name__} must not")
    assert page.solutions[0].text.startswith(_CHANGE)
    assert "a subclass of `Registered`" in page.solutions[0].text


def test_a_message_stating_no_rule_gets_none(models: Store) -> None:
    page = page_with_message(models, "models", "Field {name!r} is odd")
    assert not any(s.startswith(_CHANGE) for s in offered(page))


def test_no_hook_reaches_the_function(models: Store) -> None:
    page = page_with_message(models, "models", "schema must be a dict")
    assert not any(s.startswith(_CHANGE) for s in offered(page))


def test_a_hook_further_than_three_callers_up(models: Store) -> None:
    page = page_with_message(models, "models", "Can't add columns")
    first = page.solutions[0].text
    assert first.startswith(_CHANGE)
    assert "reached from `DeepMeta.__new__`" in first


def test_a_far_hook_of_another_folder_is_not_said(models: Store) -> None:
    page = page_with_message(models, "models", "Argument dialect_kw is not accepted")
    assert not any(s.startswith(_CHANGE) for s in offered(page))


def test_a_callable_the_class_declares_must_return_a_type(models: Store) -> None:
    page = page_with_message(models, "models", "alias_generator {alias_generator} must")
    first = page.solutions[0].text
    assert first.startswith("Make the `alias_generator` you gave your class return a `str`")
    assert "the check at line" in first
    assert "reached from `GenMeta.__new__`" in first


def test_a_rule_reached_through_a_handed_callback(models: Store) -> None:
    page = page_with_message(models, "models", "Variable tuples can only")
    assert page.solutions[0].text.startswith(_CHANGE)


def test_an_unrecognized_signature(models: Store) -> None:
    page = page_with_message(models, "models", "Unrecognized field_validator")
    assert page.solutions[0].text.startswith("Change the signature of the function")
