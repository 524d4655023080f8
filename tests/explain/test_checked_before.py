"""A check every caller makes first: when each caller asserts the opposite of the site's
condition on the object's own state (or leaves when it holds) before the call, the site is
never reached failing (only a call from outside the package reaches it). No way out is
offered and "What it means" says why; a caller that does not check first keeps the page as
it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

KERN = {
    "kern/__init__.py": "",
    "kern/attn.py": """
        class Impl:
            def __init__(self, version=None):
                self.version = version

            def forward(self, query):
                assert self.version is not None, "version not detected"
                if query.ndim == 3:
                    return self._split(query)
                return query

            def _split(self, query):
                assert self.version is not None, "version not detected."
                return query


        class Other:
            def __init__(self, ready=False):
                self.ready = ready

            def run(self, x):
                if not self.ready:
                    raise RuntimeError("not ready")
                return self._step(x)

            def _step(self, x):
                if not self.ready:
                    raise RuntimeError("step before ready")
                return x

            def go(self, x):
                return self._go(x)

            def _go(self, x):
                if not self.ready:
                    raise RuntimeError("go before ready")
                return x


        class Store:
            def __init__(self, ready=False):
                self.ready = ready

            def load(self, x):
                if not self.ready:
                    raise RuntimeError("load before ready")
                return self._load(x)

            def _load(self, x):
                if not self.ready:
                    raise RuntimeError("_load before ready")
                return x

            def save(self, x):
                if not self.ready:
                    raise RuntimeError("save before ready")
                return self._save(x)

            def _save(self, x):
                if not self.ready:
                    raise RuntimeError("_save before ready")
                return x


        class Cached(Store):
            def _load(self, x):
                return super()._load(x)

            def _save(self, x):
                return super()._save(x)

            def quick(self, x):
                return self._save(x)
        """,
    "kern/slots.py": """
        def _slots(table, block_size):
            if block_size <= 0:
                raise ValueError("block size must be positive")
            return table


        def slot_mapping(table, storage_block_size, ratio):
            if storage_block_size <= 0 or ratio <= 0:
                raise ValueError("sizes must be positive")
            return _slots(table, storage_block_size)


        def _rows(table, row_size):
            if row_size <= 0:
                raise ValueError("row size must be positive")
            return table


        def row_mapping(table, size):
            if table is None:
                raise ValueError("no table")
            return _rows(table, size)


        def _shrink(table, n):
            n = n - 1
            if n < 0:
                raise ValueError("n below zero")
            return table


        def shrink(table, m):
            if m < 0:
                raise ValueError("m below zero")
            return _shrink(table, m)


        def _sized(table, *extra, size=1):
            if size <= 0:
                raise ValueError("size must be positive")
            return table


        def sized(table, count, **options):
            if count <= 0:
                raise ValueError("count must be positive")
            return _sized(table, count, **options)


        def _pad(table, width):
            if width <= 0:
                raise ValueError("width must be positive")
            return table


        def pad(table, width, height):
            assert width > 0 and height > 0
            return _pad(table, width)


        def _trim(table, depth, strict=False):
            if strict:
                depth -= 1
            if depth < 0:
                raise ValueError("depth below zero")
            return table


        def trim(table, depth, strict=False):
            if depth < 0:
                raise ValueError("negative depth")
            return _trim(table, depth, strict)


        def _unfold(table, rows):
            assert rows > 0
            rows = rows * 2
            return table[:rows]


        def unfold(table, rows):
            assert rows > 0
            return _unfold(table, rows)


        def _spread(table, gap):
            if gap <= 0:
                raise ValueError("gap must be positive")
            return table


        def spread(table, gap):
            if table is None:
                raise ValueError("no table to spread")
            if gap <= 0:
                return _spread(table, gap)
            return table


        def _limit(table, bound):
            match table:
                case (bound, _):
                    pass
            if bound < 0:
                raise ValueError("bound below zero")
            return table


        def limit(table, bound):
            if bound < 0:
                raise ValueError("negative bound")
            return _limit(table, bound)
        """,
}


@pytest.fixture(scope="module")
def kern(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kern"), "kern", KERN)


def test_a_caller_asserting_the_opposite_first_leaves_nothing_to_do(kern: Store) -> None:
    page = page_in_function(kern, "kern", "Impl._split")
    assert page.solutions == []
    assert (
        "Every caller in kern checks the opposite before calling it: `Impl.forward` checks "
        "`assert self.version is not None` first (kern/attn.py:7)" in page.what_it_means
    )
    assert "the program never reaches this check failing" in page.what_it_means
    assert "fails only when `_split` is called from elsewhere" in page.what_it_means


def test_a_caller_leaving_on_the_condition_first_leaves_nothing_to_do(kern: Store) -> None:
    page = page_in_function(kern, "kern", "Other._step")
    assert page.solutions == []
    assert "`Other.run` checks `if not self.ready` first" in page.what_it_means


def test_a_caller_checking_nothing_first_keeps_the_page(kern: Store) -> None:
    page = page_in_function(kern, "kern", "Other._go")
    assert "checks the opposite" not in page.what_it_means


def test_an_override_handing_on_through_super_is_reached_as_the_method_is(kern: Store) -> None:
    # `Cached._load` runs when `Store.load` calls `self._load`: its check covers it
    page = page_in_function(kern, "kern", "Store._load")
    assert "`Store.load` checks `if not self.ready` first" in page.what_it_means


def test_an_override_with_a_caller_of_its_own_is_a_way_in(kern: Store) -> None:
    # `Cached.quick` calls the override, which hands on to `Store._save`, checking nothing
    page = page_in_function(kern, "kern", "Store._save")
    assert "checks the opposite" not in page.what_it_means


def test_a_caller_raising_first_on_the_argument_it_hands_on(kern: Store) -> None:
    # `block_size <= 0` is the caller's `storage_block_size <= 0`, a part of its `or`
    page = page_in_function(kern, "kern", "_slots")
    assert page.solutions == []
    assert (
        "`slot_mapping` checks `if storage_block_size <= 0 or ratio <= 0` first"
        in page.what_it_means
    )


def test_a_caller_checking_another_value_first_keeps_the_page(kern: Store) -> None:
    page = page_in_function(kern, "kern", "_rows")
    assert "checks the opposite" not in page.what_it_means


def test_a_parameter_rebound_before_the_test_is_not_the_callers_argument(kern: Store) -> None:
    # `shrink` checks `m < 0`, but `_shrink` tests `n - 1`: m == 0 still fails
    page = page_in_function(kern, "kern", "_shrink")
    assert "checks the opposite" not in page.what_it_means


def test_a_keyword_only_parameter_is_not_read_by_position(kern: Store) -> None:
    # `size` comes after `*extra`: `count`, the second argument, is not it
    page = page_in_function(kern, "kern", "_sized")
    assert "checks the opposite" not in page.what_it_means


def test_a_caller_asserting_an_and_of_the_opposite_first(kern: Store) -> None:
    page = page_in_function(kern, "kern", "_pad")
    assert page.solutions == []
    assert "`pad` checks `assert width > 0 and height > 0` first" in page.what_it_means


def test_a_parameter_rebound_under_a_branch_is_not_the_callers_argument(kern: Store) -> None:
    # `depth -= 1` when `strict`: the caller's `depth < 0` says nothing of 0 made -1
    page = page_in_function(kern, "kern", "_trim")
    assert "checks the opposite" not in page.what_it_means


def test_a_check_holding_the_call_is_not_made_first(kern: Store) -> None:
    # `if gap <= 0: return _spread(table, gap)` calls it with the very value
    page = page_in_function(kern, "kern", "_spread")
    assert "checks the opposite" not in page.what_it_means


def test_a_parameter_rebound_after_the_test_is_still_the_callers_argument(kern: Store) -> None:
    # `rows = rows * 2` comes after the assert: the caller's `assert rows > 0` holds there
    page = page_in_function(kern, "kern", "_unfold")
    assert page.solutions == []
    assert "`unfold` checks `assert rows > 0` first" in page.what_it_means


def test_a_parameter_a_case_pattern_binds_is_not_the_callers_argument(kern: Store) -> None:
    # `case (bound, _):` binds `bound` anew from the table: the caller's `bound < 0` says
    # nothing of it
    page = page_in_function(kern, "kern", "_limit")
    assert "checks the opposite" not in page.what_it_means
