"""A keyword named private (`_adapt=False`) is the package's own to pass: its descriptor, its
merge. No user writes it, and turning it over skips the check with the value still there:
no way out is offered through it; a keyword of a public name stays one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ATTRS = {
    "attrs/__init__.py": "",
    "attrs/collections.py": """
        class CollectionImpl:
            def set(self, state, value, _adapt=True):
                if _adapt and not isinstance(value, list):
                    raise TypeError("Incompatible collection type")
                state.items = value

            def replace(self, state, value, adapt=True):
                if adapt and not isinstance(value, list):
                    raise TypeError("Incompatible replacement type")
                state.items = value


        def register(_decorated=None, name=None):
            if _decorated is not None and not isinstance(_decorated, type):
                raise TypeError("Decorator can only be applied to classes.")
            return _decorated


        class Context:
            def invoke(__self, __callback, *args):
                if not callable(__callback):
                    raise TypeError("Callback is not callable.")
                return __callback(*args)
        """,
}


@pytest.fixture(scope="module")
def attrs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("attrs"), "attrs", ATTRS)


def test_a_private_keyword_is_no_way_out(attrs: Store) -> None:
    page = page_with_message(attrs, "attrs", "Incompatible collection type")
    assert not any("`_adapt`" in s.text for s in page.solutions)


def test_a_public_keyword_stays_a_way_out(attrs: Store) -> None:
    page = page_with_message(attrs, "attrs", "Incompatible replacement type")
    assert any("`adapt`" in s.text for s in page.solutions)


def test_the_first_parameter_and_a_positional_spelling_stay_the_users(attrs: Store) -> None:
    # `@register` hands the decorated object as `_decorated`; `__callback` is positional
    page = page_with_message(attrs, "attrs", "Decorator can only be applied")
    assert any("`_decorated`" in s.text for s in page.solutions)
    page = page_with_message(attrs, "attrs", "Callback is not callable")
    assert any("`__callback`" in s.text for s in page.solutions)
