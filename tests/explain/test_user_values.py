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
        from trace.query import Query
        """,
    "trace/query.py": """
        class QueryError(Exception):
            pass


        class Query:
            def __init__(self):
                self._where = ()

            def _no_criterion(self, meth):
                if self._where:
                    raise QueryError(f"Query.{meth}() called on a Query with criteria")

            def get(self, ident):
                self._no_criterion("get")
                return ident

            def first(self):
                try:
                    self._no_criterion("first")
                except QueryError:
                    return None
        """,
    "trace/deep/inner/lookup.py": """
        class LookupError_(Exception):
            pass


        def _require(name):
            if name not in ("a", "b"):
                raise LookupError_(f"{name} is not registered")


        def build():
            _require("gelu")
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
    # the message's requirement is the way out (`stated_requirement`)
    assert page.solutions[0].text.startswith(
        "Make each item of the argument `suppress` of `Traceback` have a file, as the message"
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
    # no evidence that only the program's own state decides it: not sent to the project
    assert "worth reporting" not in page.what_it_means
    assert "the traceback's frames above this one show which call led here" in page.what_it_means


def test_the_operand_of_an_in_place_operator(trace: Store) -> None:
    page = page_in_function(trace, "trace", "_ProxiedSet.__isub__")
    assert "worth reporting" not in page.what_it_means
    assert "it tests `s`, the operand of `obj -= s`" in page.what_it_means


def test_an_operand_computed_first_or_read_beside_the_objects_fields(trace: Store) -> None:
    for function in ("_ProxiedSet.__imul__", "_ProxiedSet.__getitem__"):
        page = page_in_function(trace, "trace", function)
        assert "the operand of" not in page.what_it_means


def test_a_helper_refusing_the_call_on_the_users_object(trace: Store) -> None:
    page = page_in_function(trace, "trace", "Query.get")
    assert "worth reporting" not in page.what_it_means
    assert "`QueryError` is raised by the helper called here for what the code was handed" in (
        page.what_it_means
    )


def test_a_helper_called_in_a_try_or_deep_in_the_package_keeps_the_invariant(
    trace: Store,
) -> None:
    for function in ("Query.first", "build"):
        sites = [s for s in trace.list_sites("trace") if s.site.function == function]
        assert [str(s.site.kind) for s in sites] == ["helper"]
        page = page_in_function(trace, "trace", function)
        assert "raised by the helper called here" not in page.what_it_means
