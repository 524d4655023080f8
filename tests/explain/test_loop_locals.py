"""A local a loop around the site assigns again is not said at its first binding, and no way
out is read through that binding."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LOOPS = {
    "loops/__init__.py": "",
    "loops/wait.py": """
        import time


        def wait_for(path, timeout):
            remaining = timeout
            while not path.exists():
                if remaining <= 0:
                    raise TimeoutError("marker not found before timeout")
                time.sleep(0.1)
                remaining -= 0.1
            return path


        async def await_for(path, timeout):
            remaining = timeout
            while not path.exists():
                if remaining <= 0:
                    raise TimeoutError("async marker not found before timeout")
                remaining -= 0.1
            return path


        def each_turn(items, limit):
            for item in items:
                size = item.size
                if size > limit:
                    raise ValueError("an item over the limit")
                size = 0
            return items


        def first_turn(items, limit):
            budget = limit
            for item in items:
                if budget <= 0:
                    raise ValueError("no budget for the items")
                item.run()
            return items
        """,
}


@pytest.fixture(scope="module")
def loops(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("loops"), "loops", LOOPS)


@pytest.mark.parametrize("message", ["marker not found", "async marker not found"])
def test_a_local_the_loop_lowers_is_not_read_at_its_first_value(loops: Store, message: str) -> None:
    # `remaining` starts as `timeout` and the loop lowers it: the path already has a
    # positive timeout, so "pass `timeout` above 0" would be no way out
    page = page_with_message(loops, "loops", message)
    assert not any("above `0`" in s.text for s in page.solutions), page.solutions
    assert "`remaining` is `timeout`" not in page.what_it_means


def test_a_local_the_loop_leaves_alone_keeps_its_binding(loops: Store) -> None:
    page = page_with_message(loops, "loops", "no budget")
    assert any("`limit`" in s.text for s in page.solutions), page.solutions


def test_a_local_bound_again_on_each_turn_keeps_its_binding(loops: Store) -> None:
    # `size = item.size` runs on every turn before the check: what it says holds there
    page = page_with_message(loops, "loops", "an item over the limit")
    assert "`size` is `item.size`" in page.what_it_means, page.what_it_means
