"""The standard library's tokenizer, trimmed to what the page's lexer reads.

`tokenize.generate_tokens` builds a `TokenInfo` (with its line and end) for every token and
looks its pattern up in a cache at every match: a third of lexing a snippet. This is its
loop (Python 3.11's `tokenize._tokenize` for text) giving `(type, string, row, column)`,
without the indentation tokens and the end marker the lexer skips; on 3.11 it reads the
same tokens and fails the same way (`IndentationError`, `TokenError`) on the same lines.
From 3.12 `tokenize` splits an f-string into parts (`FSTRING_START`, ...); this loop still
gives it whole as one string, as the page shows it, so the comparison holds on 3.11 only.
"""

from __future__ import annotations

import re
import tokenize
from collections.abc import Callable, Iterator
from tokenize import COMMENT, ERRORTOKEN, NAME, NEWLINE, NL, NUMBER, OP, STRING, TokenError

_PSEUDO = re.compile(tokenize.PseudoToken, re.UNICODE)
# A name not followed by a quote (not a string's prefix): what `_PSEUDO` would find there,
# its last alternative, after trying the thirty before it (numbers, operators, strings
# with every prefix) at each of a snippet's names.
_NAME = re.compile(r"[ \f\t]*((?![0-9])\w++)(?![\"'])", re.UNICODE)
_ENDS = {quote: re.compile(pattern, re.UNICODE) for quote, pattern in tokenize.endpats.items()}
_SINGLE = frozenset(tokenize.single_quoted)
_TRIPLE = frozenset(tokenize.triple_quoted)
_TAB = tokenize.tabsize

Scanned = Iterator[tuple[int, str, int, int]]


def scan(readline: Callable[[], str]) -> Scanned:
    """(type, string, row, column) of each token of the lines `readline` gives."""
    lnum = parenlev = continued = 0
    contstr, needcont = "", False
    strstart = (0, 0)
    endprog = _PSEUDO
    indents = [0]
    last_line = line = ""
    while True:
        last_line, line = line, readline()
        lnum += 1
        pos, end_of_line = 0, len(line)
        if contstr:  # a string continued from an earlier line
            if not line:
                raise TokenError("EOF in multi-line string", strstart)
            endmatch = endprog.match(line)
            if endmatch:
                pos = end = endmatch.end(0)
                yield STRING, contstr + line[:end], strstart[0], strstart[1]
                contstr, needcont = "", False
            elif needcont and line[-2:] != "\\\n" and line[-3:] != "\\\r\n":
                yield ERRORTOKEN, contstr + line, strstart[0], strstart[1]
                contstr = ""
                continue
            else:
                contstr += line
                continue
        elif parenlev == 0 and not continued:  # a new statement
            if not line:
                break
            column = 0
            while pos < end_of_line:  # its indentation
                char = line[pos]
                if char == " ":
                    column += 1
                elif char == "\t":
                    column = (column // _TAB + 1) * _TAB
                elif char == "\f":
                    column = 0
                else:
                    break
                pos += 1
            if pos == end_of_line:
                break
            if line[pos] in "#\r\n":  # a comment or a blank line
                if line[pos] == "#":
                    comment = line[pos:].rstrip("\r\n")
                    yield COMMENT, comment, lnum, pos
                    pos += len(comment)
                yield NL, line[pos:], lnum, pos
                continue
            if column > indents[-1]:
                indents.append(column)
            while column < indents[-1]:
                if column not in indents:
                    raise IndentationError(
                        "unindent does not match any outer indentation level",
                        ("<tokenize>", lnum, pos, line),
                    )
                indents.pop()
        else:  # a statement continued
            if not line:
                raise TokenError("EOF in multi-line statement", (lnum, 0))
            continued = 0

        while pos < end_of_line:
            named = _NAME.match(line, pos)
            if named is not None and line[named.start(1)].isidentifier():
                start, pos = named.span(1)
                yield NAME, line[start:pos], lnum, start
                continue
            pseudomatch = _PSEUDO.match(line, pos)
            if not pseudomatch:
                yield ERRORTOKEN, line[pos], lnum, pos
                pos += 1
                continue
            start, end = pseudomatch.span(1)
            pos = end
            if start == end:
                continue
            token, initial = line[start:end], line[start]
            if initial in "0123456789" or (initial == "." and token not in (".", "...")):
                yield NUMBER, token, lnum, start
            elif initial in "\r\n":
                yield (NL if parenlev > 0 else NEWLINE), token, lnum, start
            elif initial == "#":
                yield COMMENT, token, lnum, start
            elif token in _TRIPLE:
                endprog = _ENDS[token]
                endmatch = endprog.match(line, pos)
                if endmatch:  # all on one line
                    pos = endmatch.end(0)
                    yield STRING, line[start:pos], lnum, start
                else:  # over several lines
                    strstart = (lnum, start)
                    contstr = line[start:]
                    break
            elif initial in _SINGLE or token[:2] in _SINGLE or token[:3] in _SINGLE:
                if token[-1] == "\n":  # a string continued by a backslash
                    strstart = (lnum, start)
                    endprog = _ENDS.get(initial) or _ENDS.get(token[1]) or _ENDS[token[2]]
                    contstr, needcont = line[start:], True
                    break
                yield STRING, token, lnum, start
            elif initial.isidentifier():
                yield NAME, token, lnum, start
            elif initial == "\\":
                continued = 1
            else:
                if initial in "([{":
                    parenlev += 1
                elif initial in ")]}":
                    parenlev -= 1
                yield OP, token, lnum, start
    # the implicit NEWLINE of a text that does not end in one
    if last_line and last_line[-1] not in "\r\n" and not last_line.strip().startswith("#"):
        yield NEWLINE, "", lnum - 1, len(last_line)
