"""Highlighted code: the bytes Pygments' formatter writes with the pages' options."""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter

import errdex
from errdex.web.code_html import code_html
from errdex.web.python_tokens import TokenizeLexer

LEXER = TokenizeLexer(stripnl=False, ensurenl=True)
FORMATTER = HtmlFormatter(
    linenos="inline", lineanchors="L", anchorlinenos=True, wrapcode=True, cssclass="highlight"
)


def pygments_html(code: str, first_line: int, marked: set[int]) -> str:
    formatter = copy.copy(FORMATTER)
    formatter.linenostart = first_line
    formatter.hl_lines = marked
    return highlight(code, LEXER, formatter)


CODE = textwrap.dedent(
    '''\
    @functools.lru_cache(maxsize=4)
    def parse(self, x: int = 0x1F) -> "A & B <C>":
        """Read it.

        Twice: <b> & more."""
        if x is not None and y in (1, 2.5):
            raise ValueError(f"bad {x}", b'a') from None  # never

        s = """
    '''
)


@pytest.mark.parametrize(
    "code",
    [
        CODE,
        CODE.rstrip("\n"),  # no final newline
        CODE.replace("\n", "\r\n"),  # Windows line ends
        "\ufeff" + CODE,  # a byte order mark
        "",
        "\n\n",
        "x = (1,\n",  # cut inside a bracket: the regex lexer's from there
        "    return x\ny = 2\n",  # dedented below the first line
        "\tif a:\n\t\tb <<= 1\n",
    ],
)
@pytest.mark.parametrize(("first_line", "marked"), [(1, set()), (98, {2, 3}), (7, {1, 40})])
def test_the_bytes_pygments_writes(code: str, first_line: int, marked: set[int]) -> None:
    assert code_html(LEXER, code, first_line, marked) == pygments_html(code, first_line, marked)


def test_the_bytes_pygments_writes_for_a_whole_module() -> None:
    # errdex's own sources: every kind of token, long files (line numbers 4 digits wide)
    for path in sorted(Path(errdex.__file__).parent.rglob("*.py"))[:40]:
        text = path.read_text("utf-8")
        assert code_html(LEXER, text, 1, {5}) == pygments_html(text, 1, {5}), path
