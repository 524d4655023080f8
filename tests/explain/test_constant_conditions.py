"""A condition that is a constant true on every path (`assert False, "..."` fails whenever it
is reached; `while True:` always loops) says nothing of when the error happens: the page
lists only the conditions that decide it, never `not False`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

KINDS = {
    "kinds/__init__.py": "",
    "kinds/convert.py": """
        def instruction(fp8_type):
            if fp8_type == "e4m3":
                return "cvt.e4m3"
            else:
                assert False, "Unsupported fp8 element type"


        def reached():
            assert False, "never reached"


        def level(value):
            if value == 0:
                return "SERIALIZABLE"
            elif value == 1:
                return "READ UNCOMMITTED"
            assert False, "Unknown isolation level %s" % value


        def pump(queue):
            while True:
                item = queue.get()
                if item is None:
                    raise ValueError("the queue was closed")
        """,
}


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kinds"), "kinds", KINDS)


def test_assert_false_lists_the_branch_that_reaches_it_not_its_constant(kinds: Store) -> None:
    page = page_with_message(kinds, "kinds", "Unsupported fp8 element type")
    assert [c.text for c in page.conditions] == ["fp8_type != 'e4m3'"]
    assert "not False" not in page.what_it_means
    assert "fp8_type" in page.what_it_means


def test_assert_false_with_nothing_around_it_is_unguarded(kinds: Store) -> None:
    page = page_with_message(kinds, "kinds", "never reached")
    assert page.conditions == []
    assert "nothing in its function guards it" in page.what_it_means


def test_the_earlier_exits_stay_and_the_constant_goes(kinds: Store) -> None:
    page = page_with_message(kinds, "kinds", "Unknown isolation level")
    assert "not False" not in page.what_it_means
    assert "`value` does not equal `0`" in page.what_it_means


def test_while_true_is_no_condition_of_a_raise_in_its_body(kinds: Store) -> None:
    page = page_with_message(kinds, "kinds", "the queue was closed")
    assert all(c.text != "True" for c in page.conditions)
    assert "item" in page.what_it_means
