"""An argument the function fills in when left out, with the very value its check wants:
leaving it out is the way out, offered only when the guards of that filling hold on the
check's path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

CORE = """
    class Parameter:
        def __init__(self, type=None, nargs=None, default=None):
            self.type = type
            if nargs is None:
                if self.type.is_composite:
                    nargs = self.type.arity
                else:
                    nargs = 1
            self.nargs = nargs
            if self.type.is_composite and nargs != self.type.arity:
                raise ValueError(f"'nargs' must be {self.type.arity} for {self.type!r}")
            if nargs != 1 and default is not None and not isinstance(default, list):
                raise ValueError("'default' must be a list when 'nargs' != 1.")


    def _internal(size=None):
        if size is None:
            size = 4
        if size != 4:
            raise ValueError("size must be 4")
    """


@pytest.fixture(scope="module")
def clicky(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"clicky/__init__.py": "", "clicky/core.py": CORE}
    yield from indexed_package(tmp_path_factory.mktemp("clicky"), "clicky", files)


def test_leaving_the_argument_out_lets_the_function_fill_in_what_the_check_wants(
    clicky: Store,
) -> None:
    page = page_with_message(clicky, "clicky", "'nargs' must be")
    assert page.solutions[0].text == (
        "Leave the argument `nargs` of `Parameter` out (or pass None): the function then "
        "sets it to `self.type.arity` itself (line 7), the value this check wants."
    )


def test_no_leave_it_out_when_the_filling_is_under_another_branch_or_private(
    clicky: Store,
) -> None:
    # `nargs = 1` is filled in only for a type that is not composite (an `else`): leaving
    # it out with a tuple type gives the arity, not 1
    page = page_with_message(clicky, "clicky", "'default' must be a list")
    assert not any("Leave the argument `nargs`" in s.text for s in page.solutions)
    assert not any(
        "Leave the argument" in s.text
        for s in page_with_message(clicky, "clicky", "size must be 4").solutions
    )
