"""A way out that changes one argument meets the function's other checks of it: phrased to
meet the next one (`'w'` in place of `'x'`), or dropped when it trips a guard that ties the
argument to another (both given or neither)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import ChangedArgument
from errdex.store import Store

STREAMS = """
    def open_stream(filename, mode="r", atomic=False):
        if not atomic:
            return open(filename, mode)
        if "a" in mode:
            raise ValueError("Appending to a file is not supported.")
        if "x" in mode:
            raise ValueError("Use the `overwrite`-parameter instead.")
        if "w" not in mode:
            raise ValueError("Atomic writes only make sense with `w`-mode.")
        return open(filename, mode)
    """

KERNELS = """
    def combine(out, partial, temperature_partial=None, temperature_out=None):
        if (temperature_partial is None) != (temperature_out is None):
            raise ValueError("temperature_partial and temperature_out go together")
        if temperature_partial is not None and temperature_partial.shape != partial.shape:
            raise ValueError("temperature_partial must have the shape of partial")
        return out


    def salted(salt):
        if salt is None:
            return None
        if not isinstance(salt, str) or not salt:
            raise ValueError("salt must be a non-empty string")
        if len(salt) > 8 or any(c in "@/" for c in salt):
            raise ValueError("salt must be at most 8 characters, with no '@' or '/'")
        return salt


    def scale(out, factor=None):
        if factor is not None and factor.shape != out.shape:
            raise ValueError("factor must have the shape of out")
        return out
    """


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"streams/__init__.py": "", "streams/files.py": STREAMS, "streams/ops.py": KERNELS}
    yield from indexed_package(tmp_path_factory.mktemp("streams"), "streams", files)


def test_leaving_a_member_out_keeps_what_the_next_check_asks_for(streams: Store) -> None:
    page = page_with_message(streams, "streams", "Use the `overwrite`")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Use `'w'` in place of `'x'` in the argument `mode` of `open_stream`: the check at "
        "line 9 asks that `'w'` occurs in `mode`."
    )
    assert not any(t.startswith("Leave `'x'` out") for t in texts)


def test_leaving_out_one_of_two_arguments_a_guard_ties_is_no_way_out(streams: Store) -> None:
    page = page_with_message(streams, "streams", "temperature_partial must have")
    texts = [s.text for s in page.solutions]
    assert not any("temperature_partial` of `combine` out" in t or "None for" in t for t in texts)
    assert page.example_fix is None
    assert "Passing None for `temperature_partial` is no way out: the guard at line 3" in (
        page.what_it_means
    )
    # the part no other guard reads is the way out: the shape the check asks for
    assert texts and "`.shape` equal to `partial.shape`" in texts[0]


def test_an_argument_no_other_check_reads_may_be_left_out(streams: Store) -> None:
    page = page_with_message(streams, "streams", "factor must have")
    assert page.solutions[0].text.startswith("Leave the argument `factor` of `scale` out")


def test_a_value_an_earlier_exit_takes_meets_no_later_guard(streams: Store) -> None:
    page = page_with_message(streams, "streams", "salt must be at most")
    assert any(s.text.startswith("Pass None for the argument `salt`") for s in page.solutions)


def test_the_argument_changed_is_data_on_the_way_out(streams: Store) -> None:
    # what `next_checks` reads of an input way out: not its sentence, which may be reworded
    page = page_with_message(streams, "streams", "factor must have")
    assert page.solutions[0].argument == ChangedArgument(
        param="factor", function="scale", value="None", words="the argument `factor` of `scale`"
    )
    members = page_with_message(streams, "streams", "Appending to a file")
    changed = [s.argument for s in members.solutions if s.argument is not None]
    assert changed[0] == ChangedArgument(
        param="mode",
        function="open_stream",
        value="'a'",
        words="the argument `mode` of `open_stream`",
    )
