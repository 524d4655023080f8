"""One function of a file read alone, with the file's line numbers."""

from __future__ import annotations

import textwrap

from errdex.explain.context import function_at

SOURCE = textwrap.dedent(
    """
    class Config:
        def first(self):
            return 1

        def check(
            self,
            size=None,
        ):
            if size is None:
                size = 4
            if size != 4:
                raise ValueError("size")

        def after(self):
            return 2
    """
)


def test_the_function_holding_a_line_is_parsed_alone_with_the_files_lines() -> None:
    found = function_at(SOURCE, "check", 13)
    assert found is not None
    assert (found.name, found.lineno, found.end_lineno) == ("check", 6, 13)
    # the line of its `def` finds it too; a line outside it, or another name, does not
    assert function_at(SOURCE, "check", 6) is not None
    assert function_at(SOURCE, "check", 16) is None
    assert function_at(SOURCE, "missing", 13) is None
    assert function_at(None, "check", 13) is None
