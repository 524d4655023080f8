"""A descriptor's `__get__` refusing an access by where it is made: the way out is reading
the attribute on the class (or on an instance), never the `instance` argument Python's
attribute lookup passes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import first_way_out, indexed_package, page_with_message

from errdex.store import Store

DESC = {
    "desc/__init__.py": "",
    "desc/_utils.py": """
        class ClassOnly:
            def __init__(self, name, value):
                self.name = name
                self.value = value

            def __get__(self, instance, owner):
                if instance is None:
                    return self.value
                raise AttributeError(f"{self.name!r} attribute is class-only")


        class InstanceOnly:
            def __get__(self, obj, obj_type=None):
                if obj is None:
                    raise AttributeError("read it on an instance")
                return obj.__dict__["x"]


        class Guarded:
            def __get__(self, obj, cls):
                if obj is not None and cls.strict:
                    raise TypeError("strict classes hide it")
                return self
        """,
}


@pytest.fixture(scope="module")
def desc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("desc"), "desc", DESC)


def test_a_class_only_attribute_is_read_on_the_class(desc: Store) -> None:
    first = first_way_out(desc, "desc", "{self.name!r} attribute is class-only")
    assert first.startswith("Read the attribute on the class (`Class.attribute`)"), first


def test_an_instance_only_attribute_is_read_on_an_instance(desc: Store) -> None:
    first = first_way_out(desc, "desc", "read it on an instance")
    assert first.startswith("Read the attribute on an instance (`obj.attribute`)"), first


def test_another_condition_beside_the_access_says_nothing_of_it(desc: Store) -> None:
    page = page_with_message(desc, "desc", "strict classes hide it")
    assert not any(s.text.startswith("Read the attribute") for s in page.solutions)
