"""A check of what a helper found in a standard stream (`_find_binary_writer(sys.stdout)`):
the way out is the stream the user's process holds, not an argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "streams/__init__.py": "",
    "streams/_compat.py": """
        import sys


        def _find_binary_writer(stream):
            buf = getattr(stream, "buffer", None)
            return buf if buf is not None else None


        def get_binary_stdout():
            writer = _find_binary_writer(sys.stdout)
            if writer is None:
                raise RuntimeError("no binary stream for sys.stdout")
            return writer


        def first_line():
            line = sys.stdin.readline()
            if not line:
                raise EOFError("the input ended")
            return line
        """,
}


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("streams"), "streams", FILES)


def test_a_stream_handed_to_a_helper_is_the_process_s(streams: Store) -> None:
    page = page_with_message(streams, "streams", "no binary stream for sys.stdout")
    assert page.solutions[0].text == (
        "Call it with `sys.stdout` set to the process's own stream: the check at line 12 "
        "tests `writer`, which is `_find_binary_writer(sys.stdout)` (line 11), and "
        "`sys.stdout` is whatever the process holds when it runs. Your code, a test runner "
        "capturing it, a notebook or `contextlib.redirect_stdout` may have put an object "
        "there that `_find_binary_writer` cannot use: restore the original (`sys.stdout = "
        "sys.__stdout__`) before the call, or replace it with one `_find_binary_writer` "
        "accepts."
    )


def test_what_was_read_from_the_stream_is_no_stream_to_change(streams: Store) -> None:
    page = page_with_message(streams, "streams", "the input ended")
    assert not any("process's own stream" in s.text for s in page.solutions)
