"""A function nothing in the package calls: its page says the check is reached only from
outside the package (a private one: the user's own direct call or a plugin; a public one:
the user's call), instead of calling it the program's own state worth reporting. A name
handed on as a value, built for `getattr`, decorated, or a method a base class may call
keeps the page as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

ORPH = {
    "orph/__init__.py": "",
    "orph/check_test.py": """
    def helper_in_a_test_file():
        assert 1 + 1 == 3, "arithmetic"
    """,
    "orph/core.py": """
    import threading

    _STATE = {}


    def _orphan():
        assert _STATE.get("ready") is not None, "not ready"
        return 1

    def orphan_public():
        assert _STATE.get("ready") is not None, "not ready"
        return 1

    def _handed():
        assert _STATE.get("ready") is not None, "not ready"
        return 1

    def _disp_one():
        assert _STATE.get("ready") is not None, "not ready"
        return 1

    def register(f):
        return f


    @register
    def _hooked():
        assert _STATE.get("ready") is not None, "not ready"
        return 1

    class Plain:
        def _alone(self):
            assert _STATE.get("ready") is not None, "not ready"
            return 1

    class Worker(threading.Thread):
        def _bootstrap_more(self):
            assert _STATE.get("ready") is not None, "not ready"
            return 1

    def _pick_one():
        assert _STATE.get("ready") is not None, "not ready"
        return 1

    def test_orphan():
        assert _STATE.get("ready") is not None, "not ready"

    def run(kind):
        picked = [n for n in dir(Plain) if n.startswith("_pick_")]
        callbacks = [_handed]
        return getattr(Plain, "_disp_" + kind), callbacks, picked
    """,
}


@pytest.fixture(scope="module")
def orph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("orph"), "orph", ORPH)


def test_a_private_function_nothing_calls_is_reached_only_from_outside(orph: Store) -> None:
    page = page_in_function(orph, "orph", "_orphan")
    assert page.solutions == []
    assert "Nothing in orph calls `_orphan`" in page.what_it_means
    assert "your own code calling it directly (it is private to the package), or a plugin" in (
        page.what_it_means
    )
    assert "worth reporting" not in page.what_it_means


def test_a_private_method_of_a_class_with_no_base_too(orph: Store) -> None:
    page = page_in_function(orph, "orph", "Plain._alone")
    assert "Nothing in orph calls `Plain._alone`" in page.what_it_means


def test_a_public_function_nothing_calls_names_the_users_call(orph: Store) -> None:
    page = page_in_function(orph, "orph", "orphan_public")
    assert "your own code calling `orph.core.orphan_public` directly" in page.what_it_means


@pytest.mark.parametrize(
    "function",
    [
        "_handed",  # handed on as a value
        "_disp_one",  # its name built for `getattr`
        "_hooked",  # decorated: may be registered
        "_pick_one",  # found by the start of its name
        "test_orphan",  # pytest runs it
        "helper_in_a_test_file",  # in a file pytest collects
        "Worker._bootstrap_more",  # a base class outside the package may call it
    ],
)
def test_a_function_something_may_call_keeps_the_page(orph: Store, function: str) -> None:
    page = page_in_function(orph, "orph", function)
    assert "worth reporting" in page.what_it_means
    assert "Nothing in orph calls" not in page.what_it_means
