"""A check after a loop that returns on a match: "What it means" says it happens only when
no item matched (the loop's test, in the caller's terms for a helper's loop), and the loop
is never negated into a way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.store import Store

CHOOSE = {
    "choose/__init__.py": "",
    "choose/pick.py": """
        MODES = ("fast", "safe")


        def pick_mode(mode):
            for choice in MODES:
                if mode == choice:
                    return choice
            raise ValueError(f"unknown mode {mode!r}")


        def parse_enum(arg, choices, name, by_name=False):
            for value, aliases in choices.items():
                if arg is value:
                    return value
                elif by_name and arg == value.name:
                    return value
                elif arg in aliases:
                    return value
            if arg is None:
                return None
            raise ValueError(f"Invalid value for '{name}': {arg!r}")


        class Pool:
            def __init__(self, reset="rollback"):
                self.reset = parse_enum(reset, {1: ["rollback", True], 2: ["none"]}, "reset")


        def lookup(tp, name):
            for base in tp.__mro__:
                found = base.__dict__.get(name)
                if found is not None:
                    return found
            raise AttributeError(f"{name} not found in {tp}")


        def post_init(bases):
            return lookup(bases, "post_init")


        def fetch(get, url, retries):
            for attempt in range(retries):
                try:
                    return get(url)
                except OSError:
                    pass
            raise RuntimeError(f"gave up on {url}")
        """,
}


@pytest.fixture(scope="module")
def choose(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("choose"), "choose", CHOOSE)


def test_the_page_says_no_item_matched(choose: Store) -> None:
    page = page_with_message(choose, "choose", "unknown mode")
    assert (
        "It happens only when no item `choice` of `MODES` passes `mode == choice`: the loop "
        "over it returns on the first item that does." in page.what_it_means
    )
    assert "nothing in its function guards it" not in page.what_it_means
    assert not any("choice" in s.text for s in page.solutions)


def test_a_helpers_loop_is_said_in_its_callers_terms(choose: Store) -> None:
    page = page_in_function(choose, "choose", "Pool.__init__")
    assert (
        "no item `value, aliases` of `{1: ['rollback', True], 2: ['none']}.items()` passes "
        "`reset is value or reset in aliases`" in page.what_it_means
    )


def test_a_loop_that_returns_otherwise_is_said_to_run_through(choose: Store) -> None:
    page = page_with_message(choose, "choose", "gave up on")
    assert (
        "It happens only when the loop `for attempt in range(retries)` runs to its end: the "
        "function that runs it returns from inside the loop otherwise." in page.what_it_means
    )


def test_a_helpers_loop_that_returns_otherwise_is_bound_to_the_call(choose: Store) -> None:
    page = page_in_function(choose, "choose", "post_init")
    assert "the loop `for base in bases.__mro__` runs to its end" in page.what_it_means


def test_the_placement_follows_the_verb_without_a_space(choose: Store) -> None:
    page = page_with_message(choose, "choose", "gave up on")
    assert page.what_it_means.startswith(
        "`fetch` (choose/pick.py:48) raises `RuntimeError`; it sits after the loop "
        "`for attempt in range(retries)`. It happens only when"
    )
