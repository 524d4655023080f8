"""decode_source: the text `tokenize.detect_encoding` and the codec give, with or without
the line reader (plain UTF-8 is decoded without it)."""

from __future__ import annotations

import io
import tokenize

import pytest

from errdex.extract import decode_source


def _by_tokenize(data: bytes) -> str:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


@pytest.mark.parametrize(
    "data",
    [
        b"x = 'caf\xc3\xa9'\n",
        b"x = 1",
        b"",
        b"\xef\xbb\xbfx = 'caf\xc3\xa9'\n",  # a BOM: dropped, as utf-8-sig does
        b"# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n",
        b"#!/usr/bin/env python\n# coding=latin-1\nx = 'caf\xe9'\n",
        b"\n# vim: set fileencoding=cp1252 :\nx = '\x80'\n",
        b"x = 1\n# coding: latin-1 is only read on the first two lines\ny = 'caf\xc3\xa9'\n",
    ],
)
def test_decodes_as_tokenize_does(data: bytes) -> None:
    assert decode_source(data) == _by_tokenize(data)


def test_newlines_are_unified() -> None:
    assert decode_source(b"a = 1\r\nb = 2\rc = 3\n") == "a = 1\nb = 2\nc = 3\n"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"x = '\xff'\n", "invalid or missing encoding declaration"),
        (b"# a comment\ny = '\xff'\n", "invalid or missing encoding declaration"),
        (b"x = 1\n\n\ny = '\xff'\n", "can't decode byte 0xff"),
        (b"# coding: no-such-codec\n", "unknown encoding"),
        (b"x = 1\x00\n", "binary file"),
    ],
)
def test_refuses_what_is_no_text_with_its_reason(data: bytes, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        decode_source(data)
