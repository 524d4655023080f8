"""A method that always raises a refusal (`TypeError`, `AttributeError`,
`io.UnsupportedOperation`) on a class users hold: the way out is not to do that operation on
that object, said in the user's syntax with the class's public name. An interface stub, a
base's default a subclass replaces, a method the package calls itself and a private class no
public call returns say nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

BOX = {
    "box/__init__.py": "from box.items import Frozen, Base\n",
    "box/items.py": """
        import abc
        from io import UnsupportedOperation


        class Frozen:
            def __init__(self, data):
                self._data = list(data)

            def __setitem__(self, key, value):
                raise TypeError("Cannot set items in Frozen")

            def __hash__(self):
                raise TypeError

            def append(self, value):
                raise TypeError("Cannot append to a frozen box")

            def refuse(self):
                raise TypeError("Refused here")

            def use(self):
                return self.refuse()


        class Base:
            def __delitem__(self, key):
                raise TypeError("Cannot delete from Base")


        class Child(Base):
            def __delitem__(self, key):
                pass


        class Shape(abc.ABC):
            def __len__(self):
                raise TypeError("no length")


        class _Reader:
            def write(self, data):
                raise UnsupportedOperation("write")


        class _Hidden:
            def write(self, data):
                raise UnsupportedOperation("write")


        class _ProxyList:
            def __hash__(self):
                raise TypeError(f"{type(self).__name__} objects are unhashable")


        class _ProxySet:
            def __hash__(self):
                raise TypeError("set objects are unhashable")


        class Opener:
            def open(self, path):
                reader = _Reader()
                return reader


        def _hidden():
            return _Hidden()
        """,
}


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("box"), "box", BOX)


def test_a_dunder_the_class_always_refuses_is_not_done(box: Store) -> None:
    # before: no solution ("nothing in its function guards it")
    page = page_in_function(box, "box", "Frozen.__setitem__")
    assert page.solutions[0].text == (
        "Do not assign items of a `Frozen` (`obj[key] = value`): the class does not support "
        "it, as its message says: “Cannot set items in Frozen”"
    )
    hashed = page_in_function(box, "box", "Frozen.__hash__")
    assert hashed.solutions[0].text == (
        "Do not use a `Frozen` as a dict key or a set member (`hash(obj)`): the class does "
        "not support it (it always raises `TypeError`)"
    )


def test_a_public_method_the_package_never_calls_is_the_users_call(box: Store) -> None:
    page = page_in_function(box, "box", "Frozen.append")
    assert page.solutions[0].text.startswith("Do not call `append` on a `Frozen`")
    # `use` calls `refuse`: the package's own call, not the user's operation alone
    refused = page_in_function(box, "box", "Frozen.refuse")
    assert not any(s.text.startswith("Do not") for s in refused.solutions)

    # a default a subclass replaces, an interface's: not what the class refuses
    for function in ("Base.__delitem__", "Shape.__len__"):
        page = page_in_function(box, "box", function)
        assert not any(s.text.startswith("Do not") for s in page.solutions)


def test_a_private_class_is_named_by_the_public_call_that_returns_it(box: Store) -> None:
    page = page_in_function(box, "box", "_Reader.write")
    assert page.solutions[0].text == (
        "Do not call `write` on the object `Opener.open` returns: that object does not "
        "support it (it always raises `UnsupportedOperation`)"
    )
    # only a private function returns `_Hidden`: the object the user holds has no name
    assert page_in_function(box, "box", "_Hidden.write").solutions == []


def test_a_private_class_the_message_names_is_named_by_its_class(box: Store) -> None:
    # no public call returns `_ProxyList`, but the message the user sees names its class
    page = page_in_function(box, "box", "_ProxyList.__hash__")
    assert page.solutions[0].text == (
        "Do not use a `_ProxyList` (the class the message names) as a dict key or a set "
        "member (`hash(obj)`): the class does not support it, as its message says: "
        "“CLASS_NAME objects are unhashable”"
    )
    # a message that names no class of its own leaves the object unnamed
    assert page_in_function(box, "box", "_ProxySet.__hash__").solutions == []
