"""A type check in an internal helper on a value the user gave a public constructor, handed
on through `super().__init__`: the page names every public call that takes the argument
alike, and what to pass is the kinds the check's chain accepts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "net/__init__.py": (
        "from net._auth import Auth\n"
        "from net._client import AsyncClient, Client\n"
        "from net._types import Number\n"
    ),
    "net/_auth.py": """
        class Auth:
            def auth_flow(self, request):
                raise NotImplementedError("Override 'auth_flow' to implement a custom auth")
        """,
    "net/_client.py": """
        from net._auth import Auth


        class BaseClient:
            def __init__(self, auth=None):
                self._auth = self._build_auth(auth)

            def _build_auth(self, auth):
                if auth is None:
                    return None
                elif isinstance(auth, tuple):
                    return auth
                elif isinstance(auth, Auth):
                    return auth
                elif callable(auth):
                    return auth
                else:
                    raise TypeError(f"Invalid auth argument: {auth!r}")

            def _build_timeout(self, timeout):
                if isinstance(timeout, str):
                    raise TypeError("a timeout is a number of seconds, not a str")
                elif isinstance(timeout, (int, float)):
                    return timeout
                else:
                    raise TypeError(f"Invalid timeout: {timeout!r}")


        class Client(BaseClient):
            def __init__(self, auth=None, timeout=5):
                super().__init__(
                    auth=auth,
                )
                self.timeout = self._build_timeout(timeout)


        class AsyncClient(BaseClient):
            def __init__(self, auth=None):
                super().__init__(auth=auth)
        """,
    "net/_types.py": """
        def _check_scale(scale):
            if scale < 0:
                raise ValueError("the scale cannot be negative")


        class Number:
            def __init__(self, scale=0):
                _check_scale(scale)
                self.scale = scale
        """,
}


@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("net"), "net", FILES)


def test_the_kinds_a_chain_accepts_on_every_public_call_that_hands_it_on(net: Store) -> None:
    # `Client(auth=...)` and `AsyncClient(auth=...)` reach the base's helper through
    # `super().__init__`: either is the user's call, and the argument is `auth` in both
    page = page_with_message(net, "net", "Invalid auth argument")
    assert page.solutions[0].text == (
        "Pass `auth` to `net.AsyncClient` or `net.Client` as `None`, a `tuple`, an instance "
        "of `net.Auth` or a callable: it reaches `BaseClient._build_auth` as `auth`, which "
        "raises at line 19 for any other value (“Invalid auth argument: AUTH”)."
    )


def test_a_type_an_earlier_branch_refuses_is_not_offered(net: Store) -> None:
    # `str` is tested first and raises: the chain does not accept it, so no list of kinds
    page = page_with_message(net, "net", "Invalid timeout")
    assert page.solutions[0].text == (
        "Pass the argument `timeout` of `net.Client` (it reaches `BaseClient._build_timeout`) "
        "as an instance of one of `int`, `float`."
    )
    assert not any("`str`" in s.text for s in page.solutions)


def test_a_class_with_no_site_of_its_own_is_named_by_its_export(net: Store) -> None:
    # `Number` raises nothing itself: the path a user imports it by is the linker's
    page = page_with_message(net, "net", "the scale cannot be negative")
    assert page.solutions[0].text == (
        "Pass the argument `scale` of `net.Number` (it reaches `_check_scale`) at least `0`."
    )
