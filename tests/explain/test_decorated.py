"""A check of the object a user decorates is of their declaration: the page says so and
offers to change what they decorate (apply the decorator once, when the object already is
what it makes). A closure that converts a value (a processor, a validator) is no decorator."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

DECO = {
    "deco/__init__.py": "",
    "deco/commands.py": """
        REGISTRY = {}


        class Command:
            def __init__(self, name, callback):
                self.name = name
                self.callback = callback


        def command(name=None, cls=None):
            if cls is None:
                cls = Command

            def decorator(f):
                if isinstance(f, Command):
                    raise TypeError("Attempted to convert a callback into a command twice.")
                cmd = cls(name=name or f.__name__, callback=f)
                cmd.__doc__ = f.__doc__
                return cmd

            return decorator


        class Base:
            pass


        def register(name):
            def wrapper(klass):
                if not issubclass(klass, Base):
                    raise ValueError("The registered class must be a subclass of `Base`.")
                REGISTRY[name] = klass
                return klass

            return wrapper


        def make_processor(scale):
            def process(value):
                if not isinstance(value, int):
                    raise ValueError("a processed value must be an int")
                return value * scale

            return process
        """,
}


@pytest.fixture(scope="module")
def deco(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("deco"), "deco", DECO)


def test_a_decorator_applied_twice_is_applied_once(deco: Store) -> None:
    page = page_with_message(deco, "deco", "Attempted to convert a callback")
    assert page.solutions[0].text == (
        "Apply `@deco.commands.command` once: the check at line 16 fails when the object it "
        "is given already is a `Command`, which is what `@deco.commands.command` makes of it "
        "(the decorator applied twice, or over another that makes a `Command`) (“Attempted "
        "to convert a callback into a command twice.”)."
    )
    assert (
        "`f` is the function or class you decorate with `@deco.commands.command`: the check "
        "is of your declaration" in page.what_it_means
    )
    assert "errdex found no setting" not in page.what_it_means


def test_the_class_a_user_registers_is_changed(deco: Store) -> None:
    page = page_with_message(deco, "deco", "The registered class must be")
    assert page.solutions[0].text.startswith(
        "Change the function or class you decorate with `@deco.commands.register`: the check "
        "at line 31 fails when "
    )
    assert "`issubclass(klass, Base)`" in page.solutions[0].text


def test_a_processors_value_is_no_declaration(deco: Store) -> None:
    page = page_with_message(deco, "deco", "a processed value must be an int")
    assert not any("you decorate" in s.text for s in page.solutions)
    assert "you decorate" not in page.what_it_means
