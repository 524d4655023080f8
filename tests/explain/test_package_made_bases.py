"""A base method that only raises, on an interface whose instances only the package makes:
"define it in your subclass" is no way out when the class's docstring says it (or what
implements it) is internal, or when every subclass has a private name and the package does
not export the base. A base class documented for users' subclasses keeps the way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

POOLS = {
    "pools/__init__.py": """
        from pools.base import Proxied, Transport

        __all__ = ["Proxied", "Transport"]
        """,
    "pools/base.py": """
        class Proxied:
            '''A connection-like adapter.

            The public-facing interface for the internal :class:`._Fairy`
            implementation object.
            '''

            @property
            def is_valid(self):
                raise NotImplementedError()


        class Impl:
            '''internal implementation for instrumented attributes.'''

            def get_history(self, state):
                raise NotImplementedError()


        class Transport:
            '''Base class for transports: subclass it and define `handle`.'''

            def handle(self, request):
                raise NotImplementedError("The 'handle' method must be implemented.")


        class _Fairy(Proxied):
            @property
            def is_valid(self):
                return True


        class Scalar(Impl):
            def get_history(self, state):
                return state


        class Default(Transport):
            def handle(self, request):
                return request
        """,
    "pools/deep/__init__.py": "",
    "pools/deep/entries.py": """
        class Entry:
            '''What the pool keeps for each connection.'''

            def close(self):
                raise NotImplementedError()


        class _Record(Entry):
            def close(self):
                return None
        """,
}


@pytest.fixture(scope="module")
def pools(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("pools"), "pools", POOLS)


def test_an_interface_for_an_internal_class_offers_no_subclass(pools: Store) -> None:
    page = page_in_function(pools, "pools", "Proxied.is_valid")
    assert page.solutions == []
    assert (
        "`Proxied` is an interface whose objects only pools makes: its docstring says “The "
        "public-facing interface for the internal :class:`._Fairy` implementation object”. "
        "The package's own `_Fairy` defines `is_valid`; no subclass of yours is what lacks "
        "it, so no way out is offered." in page.what_it_means
    )
    assert page_in_function(pools, "pools", "Impl.get_history").solutions == []


def test_private_subclasses_of_a_base_the_package_does_not_export(pools: Store) -> None:
    page = page_in_function(pools, "pools", "Entry.close")
    assert page.solutions == []
    assert "every subclass of it in the package has a private name" in page.what_it_means


def test_a_base_documented_for_users_subclasses_keeps_the_way_out(pools: Store) -> None:
    (solution,) = page_in_function(pools, "pools", "Transport.handle").solutions
    assert solution.text.startswith("Define `handle` in your subclass of `Transport`")
