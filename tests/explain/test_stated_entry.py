"""A message that states what a value must be, raised in a function no user calls: the way
out is that requirement said of the public call's argument that reaches the check as it is
(`register_module(module=...)` → `_register_module(module)`), never of an attribute of what
was handed on (the object's state), nor of a value the package computed on the way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.store import Store

PLUG = {
    "plug/__init__.py": "from plug.manager import Manager, Other, Parser\n",
    "plug/manager.py": """
        class Parser:
            pass


        class Manager:
            parsers = {}

            @classmethod
            def _register(cls, module, module_name=None):
                if not issubclass(module, Parser):
                    raise TypeError(f"module must be subclass of Parser, but got {type(module)}")
                if module_name is None:
                    names = [module.__name__]
                elif isinstance(module_name, str):
                    names = [module_name]
                else:
                    raise TypeError("module_name must be str or None.")
                for name in names:
                    cls.parsers[name] = module

            @classmethod
            def register(cls, name=None, module=None):
                if module is not None:
                    cls._register(module=module, module_name=name)
                return module

            def _add(self, spec):
                if not isinstance(spec.kind, str):
                    raise TypeError("spec must have a str kind")
                self._count(len(spec.kind))

            def _count(self, size):
                if size < 0:
                    raise ValueError("size must be positive")

            def add(self, spec):
                self._add(spec)

            def _rows(self, rows, size):
                if rows and not isinstance(rows[0], (tuple, dict)):
                    raise TypeError("List argument must consist only of tuples or dictionaries")
                if len(rows) > size:
                    raise ValueError("Argument must be shorter than the size")

            def insert(self, table, rows=None, size=10):
                self._rows(rows, size)

            def _limit(self, limit):
                if limit > 100:
                    raise ValueError("limit must be at most 100")

            def fetch(self, limit=10):
                self._limit(limit)

            def fetch_many(self, limit=10):
                self._limit(limit)

            def _depth(self, depth):
                if depth > 3:
                    raise ValueError("depth must be at most 3")

            def walk(self, depth=1):
                self._depth(depth)


        class Other(Manager):
            def walk(self, depth=1):
                self._depth(depth)
        """,
}


@pytest.fixture(scope="module")
def plug(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("plug"), "plug", PLUG)


def test_the_requirement_is_said_of_the_public_call_s_argument(plug: Store) -> None:
    page = page_with_message(plug, "plug", "module must be subclass of Parser")
    assert page.solutions[0].text == (
        "Make the argument `module` of `plug.Manager.register` (it reaches "
        "`Manager._register`) subclass of Parser, as the message says: “module must be "
        "subclass of Parser, but got MODULE_TYPE”"
    )


def test_an_argument_handed_on_under_another_name_says_both(plug: Store) -> None:
    page = page_with_message(plug, "plug", "module_name must be str or None")
    assert page.solutions[0].text.startswith(
        "Make the argument `name` of `plug.Manager.register` (it reaches "
        "`Manager._register` as `module_name`) str or None, as the message says"
    )


@pytest.mark.parametrize(
    "message",
    [
        "spec must have a str kind",  # an attribute of what was handed on: its state
        "size must be positive",  # a value the package computed (`len(spec.kind)`)
    ],
)
def test_no_requirement_of_what_the_user_does_not_pass(plug: Store, message: str) -> None:
    page = page_with_message(plug, "plug", message)
    assert not any("as the message says" in s.text for s in page.solutions), page.solutions
    assert offered(page) == [] and checks(page), message


def test_a_subject_that_is_only_the_argument_s_kind_is_the_one_argument_read(plug: Store) -> None:
    page = page_with_message(plug, "plug", "List argument must consist only of tuples")
    assert page.solutions[0].text == (
        "Make the argument `rows` of `plug.Manager.insert` (it reaches `Manager._rows`) "
        "consist only of tuples or dictionaries, as the message says: “List argument must "
        "consist only of tuples or dictionaries”"
    )


def test_an_argument_s_kind_is_no_argument_where_the_test_reads_two(plug: Store) -> None:
    page = page_with_message(plug, "plug", "Argument must be shorter than the size")
    assert not any("as the message says" in s.text for s in page.solutions), page.solutions
    assert offered(page) == [] and checks(page)


def test_methods_of_one_class_taking_the_argument_alike_are_each_named(plug: Store) -> None:
    page = page_with_message(plug, "plug", "limit must be at most 100")
    assert page.solutions[0].text == (
        "Keep the argument `limit` of `plug.Manager.fetch` or `plug.Manager.fetch_many` (it "
        "reaches `Manager._limit`) at most 100, as the message says: “limit must be at most 100”"
    )


def test_methods_of_two_classes_are_no_one_call(plug: Store) -> None:
    page = page_with_message(plug, "plug", "depth must be at most 3")
    assert not any("as the message says" in s.text for s in page.solutions), page.solutions
    assert offered(page) == [] and checks(page)
