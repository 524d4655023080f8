"""The units of a docstring, each with its file line (a paragraph, a Google, numpy or
Sphinx entry), and the messages logged beside a statement."""

from __future__ import annotations

import textwrap

from errdex.explain.why_texts import (
    DocUnit,
    docstring_units,
    logged_beside,
    run_spans,
    statements_between,
)

SOURCE = textwrap.dedent(
    '''
    def numpy_style(x):
        """Count things.

        Parameters
        ----------
        x : int
            The count, at least one.

        Raises
        ------
        ValueError
            When x is below one.

        Examples
        --------
        >>> numpy_style(2)
        """
        if x < 1:
            warnings.warn(f"x is {x}, below the one allowed")
            raise ValueError(x)


    def sphinx_style(silent):
        """Returns the current context.

        :param silent: if set, the return value is `None`
                       if no context is available. The default is to raise
                       a :exc:`RuntimeError`.
        :raises RuntimeError: when there is none.
        """
    '''
)


LINES = SOURCE.splitlines()


def test_numpy_entries_and_no_examples() -> None:
    assert docstring_units(LINES, 1) == [
        DocUnit("Count things.", 3),
        DocUnit("The count, at least one.", 8, "parameters", "x"),
        DocUnit("When x is below one.", 13, "raises", "ValueError"),
    ]


def test_sphinx_fields_and_a_role_inside_one() -> None:
    assert docstring_units(LINES, 23) == [
        DocUnit("Returns the current context.", 25),
        DocUnit(
            "if set, the return value is `None` if no context is available. The default is to "
            "raise a :exc:`RuntimeError`.",
            27,
            "param",
            "silent",
        ),
        DocUnit("when there is none.", 30, "raises", "RuntimeError"),
    ]


def test_a_warning_beside_the_raise() -> None:
    # a placeholder left unfilled: no sentence to quote
    assert logged_beside(LINES, 21, 2) == []
    assert logged_beside(LINES, 20, 2) == []  # nothing before it in its block
    said = [
        "def g(r):",
        '    logger.warning("Eager mode is the same as setting graph_mode=none")',
        "    raise KeyError(r)",
    ]
    assert logged_beside(said, 3, 1) == [("Eager mode is the same as setting graph_mode=none", 2)]
    trace = [
        "def g(r):",
        '    logger.debug("dropping %s", r)',
        '    logger.info("req_id=%s, status=%s", r, 1)',
        "    raise KeyError(r)",
    ]
    assert logged_beside(trace, 4, 1) == []  # a debug line, a trace of values


def test_a_multi_line_signature_and_a_one_line_docstring() -> None:
    lines = [
        "def f(",
        "    a: int = (1),",
        ") -> None:",
        '    """One line."""',
        "    logger.warning(",
        '        "a is %s, which the kernel "',
        '        f"cannot take: not {a!r}",',
        "        a,",
        "    )",
        "    raise ValueError(a)",
    ]
    assert docstring_units(lines, 0) == [DocUnit("One line.", 4)]
    assert logged_beside(lines, 10, 1) == []  # "a is %s, ... not {a}": placeholders unfilled


def test_a_named_sections_list_items_and_sentences_over_lines() -> None:
    source = textwrap.dedent(
        '''
        def launch(width, pairs):
            """Launch.

            Expectations
            ------------
            - width must be even, as the kernel reads lanes
              in pairs.
            - pairs must not exceed the buffer.
            """
        '''
    ).splitlines()
    assert docstring_units(source, 1) == [
        DocUnit("Launch.", 3),
        DocUnit("- width must be even, as the kernel reads lanes in pairs.", 7, "expectations"),
        DocUnit("- pairs must not exceed the buffer.", 9, "expectations"),
    ]


def test_the_run_of_statements_a_comment_heads() -> None:
    lines = [
        "def f(x, y):",
        "    # a note",
        "    assert x is not None",
        "    z = g(",
        "        x,  # the input",
        "    )",
        "    if z:",
        "        return z",
        "",
        "    return y",
    ]
    assert [text for _, _, text in run_spans(lines, 3)] == [
        "assert x is not None",
        "z = g( x, )",
        "if z: return z",
    ]


def test_how_far_down_a_block_a_statement_sits() -> None:
    lines = [
        "if (a and",
        "        b):",
        "    x = 1",
        "    y = 2",
        "    z = 3",
        "    w = 4",
        "    raise ValueError",
    ]
    assert statements_between(lines, 1, 7)
    assert not statements_between(lines, 1, 6)

    # the lines of the branch before an `else:` are not on the way to its body
    branches = ["if a:", "    x = 1", "    y = 2", "    z = 3", "    w = 4", "else:", "    raise E"]
    assert not statements_between(branches, 1, 7)
