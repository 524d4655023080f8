"""Why, in the code's own words, from texts beside the check that the page read wrongly or
not at all: the `Raises` entry of the helper a call reaches and of the function a closure
is defined in, the docstring of a method whose `assert (` tests on its next line, a comment
over a run of asserts (of each of them, unless it labels the code after them), and no doc
of a setting that speaks of the setting alone beside a test of something else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

OUTER = {
    "outer/__init__.py": "",
    "outer/envs.py": """
        import os

        environment_variables = {
            # Turn on fast mode, which skips the warm-up (it must be off to profile).
            "OUTER_FAST": lambda: bool(int(os.getenv("OUTER_FAST", "0"))),
            # The largest batch one step takes: the step buffers hold at most this many.
            "OUTER_MAX_BATCH": lambda: int(os.getenv("OUTER_MAX_BATCH", "8")),
        }


        def __getattr__(name):
            return environment_variables[name]()
        """,
    "outer/util.py": """
        def make_alias(maker, kind):
            \"\"\"Make one alias.

            Raises:
                TypeError: If the alias maker returns no text.
            \"\"\"
            alias = maker(kind)
            if not isinstance(alias, str):
                raise TypeError(f"alias maker for {kind} gave no text")
            return alias
        """,
    "outer/checks.py": """
        from outer import envs
        from outer.util import make_alias


        class Aliases:
            def make_all(self, maker):
                \"\"\"Make the aliases of a field.\"\"\"
                return make_alias(maker, "plain")


        def version_flag(version=None):
            \"\"\"Add a version flag.

            :raise RuntimeError: ``version`` could not be detected.
            \"\"\"

            def callback(value):
                if version is None:
                    raise RuntimeError("could not determine the version")
                return version

            return callback


        class Recorder:
            def export(self):
                \"\"\"Export the lines (requires `record` set when made).\"\"\"
                assert (
                    self.record
                ), "set record=True to export"
                return self.lines


        def pack(a, b, out):
            # Set up the launch before the grid is sized
            assert a.dtype == out.dtype, "a and out differ"
            assert b.dtype == out.dtype, "b and out differ"
            grid = a.shape[0]
            return grid


        def post_update(tokens, tokens_out):
            if tokens is not None:
                # The kernel uses one row stride for both buffers.
                assert tokens_out is not None, "no tokens_out"
                assert tokens.shape[1] == tokens_out.shape[1], "widths differ"
                assert tokens.is_contiguous() and tokens_out.is_contiguous(), "not dense"
            return tokens


        def coordinate(groups, hash_size, size, caching):
            # For uncached models, hash_size validation is skipped.
            assert not caching or hash_size == size, "hash size differs"
            assert len(groups) == 1, "one group only"


        def check_fast(backend):
            if envs.OUTER_FAST and backend == "legacy":
                raise ValueError("fast mode does not work with the legacy backend")


        def check_batch(n):
            if n > envs.OUTER_MAX_BATCH:
                raise ValueError("batch over the allowed maximum")
        """,
}


@pytest.fixture(scope="module")
def outer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("outer"), "outer", OUTER)


def quotes(store: Store, message: str) -> list[str]:
    page = page_with_message(store, "outer", message)
    return [f"{q.of} ({q.file}:{q.line}): “{q.text}”" for q in page.why]


def test_the_raises_entry_of_the_helper_the_call_reaches(outer: Store) -> None:
    # the caller's own summary says what it does; the helper's Raises entry says when
    assert quotes(outer, "alias maker for plain") == [
        "docstring of `make_alias`, Raises `TypeError` (outer/util.py:6): “If the alias maker "
        "returns no text.”"
    ]


def test_the_raises_entry_of_the_function_a_closure_is_defined_in(outer: Store) -> None:
    assert quotes(outer, "could not determine the version") == [
        "docstring of `version_flag`, Raises `RuntimeError` (outer/checks.py:15): “``version`` "
        "could not be detected.”"
    ]


def test_an_assert_whose_test_is_on_its_next_line_tests_it(outer: Store) -> None:
    assert quotes(outer, "set record=True") == [
        "docstring of `Recorder.export` (outer/checks.py:28): “Export the lines (requires "
        "`record` set when made).”"
    ]


def test_no_label_of_the_code_after_a_run_of_asserts(outer: Store) -> None:
    # it speaks of the launch set up after the asserts, and of nothing they test
    assert quotes(outer, "a and out differ") == []
    assert quotes(outer, "b and out differ") == []


def test_a_comment_over_a_run_of_asserts_is_each_ones(outer: Store) -> None:
    said = (
        "comment before the check (outer/checks.py:45): “The kernel uses one row stride for "
        "both buffers.”"
    )
    assert quotes(outer, "widths differ") == [said]
    assert quotes(outer, "not dense") == [said]
    # one that names what another assert of the run tests is that one's
    assert quotes(outer, "one group only") == []


def test_no_doc_of_a_setting_alone_beside_a_test_of_something_else(outer: Store) -> None:
    # fast mode's doc says what it skips, nothing of the legacy backend
    assert quotes(outer, "fast mode does not work") == []
    # a limit's doc stays: the check holds a value to the setting
    said = quotes(outer, "batch over the allowed maximum")
    assert said[0].startswith("doc of `OUTER_MAX_BATCH` (outer/envs.py:8)"), said
