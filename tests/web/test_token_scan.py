"""The trimmed tokenizer: the tokens `tokenize` reads, and its failures on the same lines."""

from __future__ import annotations

import io
import sys
import tokenize
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from errdex.web.token_scan import scan

# From 3.12 `tokenize` splits f-strings into parts; the trimmed loop is 3.11's.
pytestmark = pytest.mark.skipif(
    sys.version_info >= (3, 12), reason="compares with Python 3.11's tokenize"
)

_UNSCANNED = {tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


Reader = Callable[[Callable[[], str]], Iterable[object]]


def _read(reader: Reader, text: str) -> list[object]:
    out: list[object] = []
    try:
        out.extend(reader(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as error:
        out.append((type(error).__name__, error.args))
    return out


def _standard(readline: Callable[[], str]) -> Iterator[tuple[int, str, int, int]]:
    for token in tokenize.generate_tokens(readline):
        if token.type not in _UNSCANNED:
            yield token.type, token.string, *token.start


CASES = [
    "def f(a, b=1):\n    return a + b  # sum\n",
    "x = '''one\ntwo''' + \"a\\\nb\"\n",  # a triple-quoted string, a backslash-continued one
    "    if x:\n        y()\n  z = 1\n",  # a dedent below the first line: IndentationError
    "call(a,\n     b",  # the text ends inside a bracket: TokenError
    's = """never closed\n',  # the text ends inside a string
    "a = 1 \\\n    + 2\nb = $ ? 0x1F .5 1e3j\n",  # a continued line, error tokens, numbers
    "\tif x:\n\t\tpass\n\f# form feed\nlast",  # tabs, a form feed, no final newline
    "f'{x!r}' rb'\\x00' u\"\" 'open\n",  # prefixes; a single quote left open
    # names: one read as a prefix (`rb'`), one before a quote that is no prefix, unicode
    # letters, a digit-like character no name starts with, a name at the text's end
    "rbx = rb'a' + Rb\"b\" + name'c' + _9\ncafé = x² + ٣ + été\nend",
]


@pytest.mark.parametrize("text", CASES)
def test_the_same_tokens_as_tokenize(text: str) -> None:
    assert _read(scan, text) == _read(_standard, text)


def test_the_same_tokens_over_standard_library_files() -> None:
    for path in sorted(Path(tokenize.__file__).parent.glob("[a-c]*.py"))[:20]:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for start in range(0, len(lines), 37):  # windows cut anywhere, as snippets are
            text = "".join(lines[start : start + 40])
            assert _read(scan, text) == _read(_standard, text), (path.name, start)
