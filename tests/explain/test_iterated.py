"""A raise under `except TypeError` of a `try` that iterates the user's argument: pass a
list, the way out beside changing what made the code iterate it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

CORE = """
    def _check_iter(value):
        if isinstance(value, str):
            raise TypeError
        return iter(value)


    class Parameter:
        def __init__(self, nargs=1, default=None, size=None, multiple=False):
            check_default = default if not callable(default) else None
            if multiple:
                check_default = next(_check_iter(check_default), None)
            if nargs != 1 and check_default is not None:
                try:
                    _check_iter(check_default)
                except TypeError:
                    if multiple:
                        raise ValueError("'default' must be a list of lists.") from None
                    raise ValueError("'default' must be a list when 'nargs' != 1.") from None
            try:
                count = int(size)
            except TypeError:
                raise ValueError("size must be a number") from None
    """


@pytest.fixture(scope="module")
def iters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"iters/__init__.py": "", "iters/core.py": CORE}
    yield from indexed_package(tmp_path_factory.mktemp("iters"), "iters", files)


def test_a_failed_iteration_of_the_argument_asks_for_a_list(iters: Store) -> None:
    page = page_with_message(iters, "iters", "'default' must be a list when")
    assert page.solutions[0].text == (
        "Pass for the argument `default` of `Parameter` a list or tuple of values (a string "
        "does not count: the check refuses it): the `try` at line 15 iterates it, and it "
        "failed with `TypeError`, so the value given is not one."
    )


def test_a_type_error_of_another_call_asks_for_no_list(iters: Store) -> None:
    page = page_with_message(iters, "iters", "size must be a number")
    assert not any("list or tuple" in s.text for s in page.solutions)
    # under `multiple` the `try` iterates the default's first item, not the default
    page = page_with_message(iters, "iters", "'default' must be a list of lists")
    assert not any("list or tuple" in s.text for s in page.solutions)
