"""An "empty value" for an input the path also compares as a number is `0`, never None
(`0 <= None` raises a TypeError before the check); no way out when 0 fails a bound too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "kern/__init__.py": "from kern.ops import Kernel, Strict, Flagged\n",
    "kern/ops.py": """
        class Kernel:
            def __init__(self, dim: int, skinny: int = 4):
                if not 0 <= skinny <= min(8, dim):
                    raise ValueError("skinny out of range")
                if skinny and dim % 64:
                    raise ValueError("Skinny kernel requires dim divisible by 64.")


        class Strict:
            def __init__(self, dim: int, skinny: int = 4):
                if not 1 <= skinny <= 8:
                    raise ValueError("skinny out of range")
                if skinny and dim % 64:
                    raise ValueError("Strict kernel requires dim divisible by 64.")


        class Flagged:
            def __init__(self, dim: int, skinny=4):
                if skinny and dim % 64:
                    raise ValueError("Flagged kernel requires dim divisible by 64.")
        """,
}


@pytest.fixture(scope="module")
def kern(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kern"), "kern", FILES)


def test_a_value_compared_as_a_number_is_emptied_with_zero(kern: Store) -> None:
    page = page_with_message(kern, "kern", "Skinny kernel requires")
    assert page.solutions[0].text == "Pass `0` for the argument `skinny` of `Kernel`."
    assert page.example_fix is not None
    assert "skinny=0" in page.example_fix.after and "None" not in page.example_fix.after


def test_no_empty_value_when_zero_fails_a_bound_of_the_path(kern: Store) -> None:
    page = page_with_message(kern, "kern", "Strict kernel requires")
    assert not any("`skinny`" in s.text for s in page.solutions)


def test_a_non_zero_default_never_compared_gets_no_empty_value(kern: Store) -> None:
    # None (or 0) would be kept in place of the default 4: nothing bounds it to say 0 is
    # a value the code takes
    page = page_with_message(kern, "kern", "Flagged kernel requires")
    assert not any("`skinny`" in s.text for s in page.solutions)
