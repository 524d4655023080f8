"""A check on what the callable a user handed a class returned: the way out is that
callable, returning what the check wants (an `async def` handler in a sync client returns
a coroutine, not a response)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

MOCK = {
    "mock/__init__.py": "from mock._transport import Pool, Reply, Transport\n",
    "mock/_transport.py": """
        import weakref


        class Reply:
            pass


        class Transport:
            def __init__(self, handler, name="mock"):
                self.handler = handler
                self.name = name

            def send(self, request):
                reply = self.handler(request)
                if not isinstance(reply, Reply):
                    raise TypeError("Cannot use an async handler in a sync client")
                return reply

            def label(self):
                text = self.render()
                if not text:
                    raise ValueError("empty label")
                return text

            def render(self):
                return self.name


        class Pool:
            def __init__(self, owner):
                self.owner_ref = weakref.ref(owner)

            def owner(self):
                owner = self.owner_ref()
                if not isinstance(owner, Reply):
                    raise RuntimeError("the pool outlived its owner")
                return owner
        """,
}


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("mock"), "mock", MOCK)


def test_the_callable_the_constructor_took_is_the_way_out(mock: Store) -> None:
    page = page_with_message(mock, "mock", "Cannot use an async handler")
    # before: no solution, "errdex found no setting or argument a user passes behind that"
    assert page.solutions[0].text == (
        "Pass `Transport` a `handler` whose return value passes the check at line 16, so "
        "that `reply` is an instance of `Reply` (`reply` is what `self.handler(request)` "
        "returns, line 15)."
    )
    assert "errdex found no setting" not in page.what_it_means


def test_a_method_of_the_class_itself_is_no_callable_of_the_user(mock: Store) -> None:
    page = page_with_message(mock, "mock", "empty label")
    assert not any("whose return value" in s.text for s in page.solutions)


def test_a_weak_reference_is_no_callable_of_the_user(mock: Store) -> None:
    # `self.owner_ref = weakref.ref(owner)`: calling it gives the object back, or None
    page = page_with_message(mock, "mock", "the pool outlived its owner")
    assert not any("whose return value" in s.text for s in page.solutions)
