"""A check with no way out found that tests a value the user decides through something
else than the function's own argument: each item of an argument of a class the package
hands its users, the operand of an operator a class defines. The page says which value it
is, never that the program's own state is "worth reporting to the project"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "trace/__init__.py": """
        from trace.render import Traceback
        """,
    "trace/render.py": """
        import os


        class Traceback:
            def __init__(self, suppress=()):
                self.suppress = []
                for entity in suppress:
                    if not isinstance(entity, str):
                        assert entity.__file__ is not None, f"{entity!r} must have a file"
                        path = os.path.dirname(entity.__file__)
                    else:
                        path = entity
                    self.suppress.append(path)

            def widths(self, columns=()):
                for column in columns:
                    if divmod(column, 8)[1] in (1, 3):
                        raise NotImplementedError(f"column {column!r} is odd")

            def keep(self, names=()):
                names = [n for n in names if n]
                for name in names:
                    assert name.isidentifier()

            def hold(self, frames=()):
                for frame in frames:
                    assert frame in self.suppress
        """,
    "trace/deep/inner/plumbing.py": """
        def merge(specs):
            for spec in specs:
                assert spec.block_size is not None
        """,
    "trace/proxied.py": """
        def _strict(self, obj):
            return isinstance(obj, (set, frozenset, self.__class__))


        class _ProxiedSet:
            def __isub__(self, s):
                if not _strict(self, s):
                    raise NotImplementedError()
                return self

            def __imul__(self, n):
                n = int(n)
                if n < 0:
                    raise NotImplementedError()
                return self

            def __getitem__(self, key):
                assert key in self.members
                return key
        """,
}


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("trace"), "trace", FILES)


def test_each_item_of_an_argument_of_a_class_users_make(trace: Store) -> None:
    page = page_in_function(trace, "trace", "Traceback.__init__")
    assert "worth reporting" not in page.what_it_means
    assert page.solutions[0].text == (
        "Pass for each item of the argument `suppress` of `trace.Traceback` a value whose "
        "`__file__` is set (not None)."
    )


def test_an_item_no_way_out_is_found_for_is_still_the_users(trace: Store) -> None:
    page = page_in_function(trace, "trace", "Traceback.widths")
    assert not page.solutions
    assert "worth reporting" not in page.what_it_means
    assert (
        "it tests each item of the argument `columns` of `trace.Traceback.widths` (`column` "
        "of `for column in columns`), the values the call was given, and the message says "
        "which one it refused." in page.what_it_means
    )
    assert "errdex found no setting behind that" in page.what_it_means


def test_an_argument_rebound_before_the_loop_is_not_the_value_given(trace: Store) -> None:
    page = page_in_function(trace, "trace", "Traceback.keep")
    assert "each item of" not in page.what_it_means
    assert not any("each item of" in s.text for s in page.solutions)


def test_an_item_checked_against_the_objects_state_is_not_the_users_alone(trace: Store) -> None:
    page = page_in_function(trace, "trace", "Traceback.hold")
    assert "each item of" not in page.what_it_means
    assert not any("each item of" in s.text for s in page.solutions)


def test_a_function_deep_in_the_package_is_not_one_users_call(trace: Store) -> None:
    page = page_in_function(trace, "trace", "merge")
    assert "each item of" not in page.what_it_means
    assert "worth reporting" in page.what_it_means


def test_the_operand_of_an_in_place_operator(trace: Store) -> None:
    page = page_in_function(trace, "trace", "_ProxiedSet.__isub__")
    assert "worth reporting" not in page.what_it_means
    assert "it tests `s`, the operand of `obj -= s`" in page.what_it_means


def test_an_operand_computed_first_or_read_beside_the_objects_fields(trace: Store) -> None:
    for function in ("_ProxiedSet.__imul__", "_ProxiedSet.__getitem__"):
        page = page_in_function(trace, "trace", function)
        assert "the operand of" not in page.what_it_means
