"""`decode_source` reads plain UTF-8 without the tokenizer, and every other source as the
tokenizer's rules say: both ways give the same text, or the same error."""

from __future__ import annotations

import codecs
import io
import tokenize

import pytest

from errdex.extract import decode_source


def _by_tokenizer(data: bytes) -> str:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


@pytest.mark.parametrize(
    "data",
    [
        b"x = 1\n",
        b"",
        "s = 'caf\u00e9'\n".encode(),
        b"#!/usr/bin/env python\n# -*- coding: latin-1 -*-\ns = '\xe9'\n",
        b"# coding: cp1252\ns = '\x93quoted\x94'\n",
        codecs.BOM_UTF8 + "s = '\u00e9'\n".encode(),
        b"x = 1\ny = 2\n# coding: latin-1 comes too late to count\n",
        b"a = 1\nb = 2\nc = '\xe9'\n",  # latin-1 bytes without a cookie: not UTF-8
    ],
)
def test_same_text_or_error_as_the_tokenizer(data: bytes) -> None:
    try:
        expected: str | None = _by_tokenizer(data)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        expected = None
    if expected is None:
        with pytest.raises(ValueError, match="undecodable source"):
            decode_source(data)
    else:
        assert decode_source(data) == expected


def test_invalid_first_line_keeps_the_tokenizers_wording() -> None:
    """A first line that is no UTF-8 is worded as the tokenizer words it."""
    with pytest.raises(ValueError, match="invalid or missing encoding declaration"):
        decode_source(b"s = '\xe9'\n")
