"""A multi-line expression's source joined into one line: read with one pattern, as
`tokenize` reads it, or by `tokenize` itself when the pattern cannot be sure."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

import errdex.extract.templates
import errdex.extract.walker
from errdex.extract import source_text
from errdex.extract.source_text import _normalize, _scanned, _tokenized

_TRICKY = [
    'f(\n    a,  # a comment, with "quotes"\n    b,\n)',
    "ValueError(\n    \"one\" 'two'\n    f\"{x!r} and {y['k']}\"\n)",
    'g(\n    """a\n  block, with \'quotes\' and "one" too""",\n    x,\n)',
    'h(\n    \'it\\\'s\',\n    "a \\"quoted\\" word",\n)',
    "k(a, \\\n  b)",
    "'a line \\\n continued' + x",
    "[\n    1,\n]",
    "(\n    1,\n)",
    "{\n    'a': 1,\n    'b': (2,\n    ),\n}",
    "x if y else (\n    z\n)",
    "call(\n    *args,\n    **kwargs,\n)",
    "rb'\\x00' + br\"\\d\" + (\n  u'\\u00e9'\n)",
    "d[\n  'key'\n]  .  attr",
    "f(\n\ta,\x0c b)",
    "f(\n    name_é,\n)",
]


@pytest.mark.parametrize("segment", _TRICKY)
def test_the_pattern_reads_as_tokenize_does(segment: str) -> None:
    assert _scanned(segment) is not None
    assert _tokenized(segment) is not None
    assert _normalize(segment) == _with_tokenize(segment)


@pytest.mark.parametrize(
    "segment",
    [
        "f(a))\n(b",  # brackets that do not pair (a misplaced f-string part)
        "f('open\n)",  # a string left open
        "f(a \\ b,\n)",  # a backslash that continues no line
    ],
)
def test_tokenize_reads_what_the_pattern_cannot(segment: str) -> None:
    assert _scanned(segment) is None
    assert _normalize(segment) == _with_tokenize(segment)


@pytest.mark.parametrize("segment", ["f(a ? b,\n)", "f(a $\n b, c)"])
def test_stray_characters_read_as_tokenize_reads_them(segment: str) -> None:
    # `tokenize` makes each an error token and goes on: the same text either way
    assert _normalize(segment) == _with_tokenize(segment)


def test_every_multi_line_expression_of_real_modules_reads_alike() -> None:
    checked = 0
    for module in (source_text, errdex.extract.templates, errdex.extract.walker):
        text = inspect.getsource(module)
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.expr) or node.end_lineno == node.lineno:
                continue
            segment = source_text._segment(text, node, 0)
            if segment is not None and any(c in segment for c in "'\"#,"):
                assert _normalize(segment) == _with_tokenize(segment), segment
                checked += 1
    assert checked > 20


def _with_tokenize(segment: str) -> str:
    """`_normalize` with the pattern turned off."""
    scanned = source_text._scanned
    source_text._scanned = lambda segment: None  # type: ignore[assignment]
    try:
        return _normalize(segment)
    finally:
        source_text._scanned = scanned


def test_dedented_sources_read_alike() -> None:
    segment = textwrap.dedent(
        """\
        raise ValueError(
            f"bad value {value!r}: "  # why
            "expected one of "
            + ", ".join(CHOICES),
        )"""
    )
    assert _normalize(segment) == _with_tokenize(segment)
