"""The source text of a node as a reader sees it: the lines it spans, sliced by the parser's
columns, with a multi-line expression joined into one line (string literals untouched,
comments out). Placeholders and conditions show this text.
"""

from __future__ import annotations

import ast
import functools
import io
import itertools
import re
import textwrap
import tokenize
import warnings
from collections.abc import Callable, Sequence

from errdex.extract.conditions import dotted_name
from errdex.lazy_re import lazy_compile

# Lines as the parser counts them: only \n, \r\n and \r end a line (not \f or \x1c).
_LINE = lazy_compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_SKIPPED_TOKENS = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.ENDMARKER}
_SKIPPED_TOKENS |= {tokenize.INDENT, tokenize.DEDENT}
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
_OPEN, _CLOSE = {"(", "[", "{"}, {")", "]", "}"}
_BREAK = lazy_compile(r"[ \t]*(?:\r\n|\r|\n)\s*")
_AFTER_OPEN = lazy_compile(r"([(\[{]) ")
_BEFORE_CLOSE = lazy_compile(r" ([)\]}])")


def source_of(source: str, node: ast.AST, line_offset: int = 0, *, check: bool = False) -> str:
    """The source of `node`, with multi-line expressions collapsed to single spaces."""
    segment = _segment(source, node, line_offset)
    # Before 3.12 some expressions inside f-strings are misplaced (3.11 gives `{a, b}` for
    # the tuple in f"{a, b}"): when asked, trust only a segment that parses to the same tree.
    if segment is not None and check and not _same(segment, node):
        inner = segment[1:-1] if segment[:1] == "{" and segment[-1:] == "}" else ""
        segment = inner if inner and _same(inner, node) else None
    if segment is None:
        try:
            return ast.unparse(node)
        except (ValueError, TypeError, AttributeError, RecursionError):
            return "..."
    return _normalize(segment)


@functools.lru_cache(maxsize=16)
def source_lines(source: str) -> tuple[str, ...]:
    """The lines of `source` as the parser counts them, each with its line end: split once
    per file for all that reads its lines (builders are made per call site)."""
    lines = source.splitlines(keepends=True)
    # `splitlines` also ends lines at `\r`, `\f`, `\x1c`, ...: when it found no more lines
    # than the `\n`s make, it cut where the parser does (and far faster than `_LINE`).
    if len(lines) == source.count("\n") + (bool(source) and not source.endswith("\n")):
        return tuple(lines)
    return tuple(_LINE.findall(source))


@functools.lru_cache(maxsize=16)
def line_starts(source: str) -> tuple[int, ...]:
    """Where each line of `source_lines(source)` starts in `source`, and `len(source)` last:
    line `n` (counted from 1) is `source[starts[n - 1] : starts[n]]`."""
    return (0, *itertools.accumulate(map(len, source_lines(source))))


def line_span(source: str, first: int, last: int) -> str:
    """Lines `first` to `last` (counted from 1, as the parser does) of `source`."""
    return "".join(source_lines(source)[first - 1 : last])


def _segment(source: str, node: ast.AST, line_offset: int) -> str | None:
    try:
        first, last = node.lineno, node.end_lineno  # type: ignore[attr-defined]
        start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
    except AttributeError:  # a node without a position (`arguments`, one made up)
        return None
    if first is None or last is None or start is None or end is None:
        return None
    lines = source_lines(source)
    first, last = first - 1 - line_offset, last - 1 - line_offset
    if not 0 <= first <= last < len(lines):
        return None
    if first == last:
        return _cols(lines[first], start, end)
    middle = "".join(lines[first + 1 : last])
    return _cols(lines[first], start, None) + middle + _cols(lines[last], 0, end)


def _cols(line: str, start: int, end: int | None) -> str:
    """Slice by the parser's columns, which count UTF-8 bytes."""
    if line.isascii():
        return line[start:end]
    return line.encode()[start:end].decode(errors="replace")


def _normalize(segment: str) -> str:
    """Join a multi-line expression into one line, string literals untouched, comments out."""
    if "\n" not in segment and "\r" not in segment:
        return segment
    if not any(c in segment for c in "'\"#,"):
        # No strings, comments or commas to keep apart: joining the lines is all there is.
        joined = _BREAK.sub(" ", segment)
        return _AFTER_OPEN.sub(r"\1", _BEFORE_CLOSE.sub(r"\1", joined))
    tokens = _scanned(segment)
    if tokens is None:
        tokens = _tokenized(segment)
        if tokens is None:
            return " ".join(segment.split())
    out: list[str] = []
    commas: list[int] = []  # per open bracket (2 for `[` and `{`: never a tuple)
    prev: _Token | None = None
    for tok in tokens:
        string = tok[0]
        if prev is not None and prev[4] == tok[3]:
            out.append(segment[prev[2] : tok[1]])
        elif prev is not None and prev[0] not in _OPEN and string not in _CLOSE:
            out.append(" ")
        if string in _OPEN:
            commas.append(0 if string == "(" else 2)
        elif string == "," and commas:
            commas[-1] += 1
        elif string in _CLOSE and commas:
            # A magic trailing comma before a bracket on its own line goes, unless it may
            # be what makes a one-element tuple.
            wrapped = prev is not None and prev[0] == "," and prev[4] != tok[3]
            if commas.pop() >= 2 and wrapped:
                out.pop()
        out.append(string)
        prev = tok
    return "".join(out)


# A token: (its text, start and end offsets in the segment, its first and last line).
_Token = tuple[str, int, int, int, int]
# What an expression's text is made of, one piece a match, as `tokenize` reads it: blanks
# (a backslash-newline too), a line end, a comment, a string literal (its prefix is read
# with the word before it), a bracket or comma, and a run of anything else (names, numbers,
# operators: where one token of such a run ends and the next begins changes no text here).
_PIECE = lazy_compile(
    r"(?P<blank>[ \t\f]+|\\\n)"
    r"|(?P<end>\n)"
    r"|(?P<comment>#[^\n]*)"
    r"|(?P<string>'''(?:[^'\\]++|\\.|'(?!''))*+'''"
    r'|"""(?:[^"\\]++|\\.|"(?!""))*+"""'
    r"|'(?:[^'\\\n]++|\\.)*+'"
    r'|"(?:[^"\\\n]++|\\.)*+")'
    r"|(?P<bracket>[()\[\]{},])"
    r"|(?P<run>[^\s'\"#()\[\]{},\\]+)",
    re.DOTALL,
)
_F_PREFIX = lazy_compile(r"[A-Za-z]*[fF][A-Za-z]*\Z")


def _scanned(segment: str) -> list[_Token] | None:
    """The tokens `tokenize` finds in `(segment)`, without comments, blanks and our own
    brackets, read with one pattern (`tokenize` takes tens of times longer); None for a text
    this reading may get wrong (brackets that do not pair, a string left open, a character
    no expression holds outside a string, an f-string that `tokenize` splits since 3.12):
    `tokenize` reads it then."""
    out: list[_Token] = []
    line = depth = at = 0
    size = len(segment)
    match = _PIECE.match
    while at < size:
        piece = match(segment, at)
        if piece is None:
            return None
        kind, end = piece.lastgroup, piece.end()
        if kind == "blank" or kind == "end":
            if segment[end - 1] == "\n":
                line += 1
        elif kind == "string":
            text = piece.group()
            if _FSTRING_START != -1 and out and out[-1][2] == at and _F_PREFIX.search(out[-1][0]):
                return None
            lines = text.count("\n")
            out.append((text, at, end, line, line + lines))
            line += lines
        elif kind == "bracket" or kind == "run":
            text = piece.group()
            if text in _OPEN:
                depth += 1
            elif text in _CLOSE:
                depth -= 1
                if depth < 0:
                    return None
            out.append((text, at, end, line, line))
        at = end
    return out if depth == 0 else None


def _tokenized(segment: str) -> list[_Token] | None:
    """The tokens of `(segment)` as `tokenize` gives them (`_scanned`'s, read the slow way),
    or None when it cannot read them."""
    text = f"({segment})"  # brackets make any line break inside legal
    try:
        readline = io.StringIO(text).readline
        tokens = [t for t in tokenize.generate_tokens(readline) if t.type not in _SKIPPED_TOKENS]
    except (tokenize.TokenError, SyntaxError):
        return None
    starts = [0]
    for line in _LINE.findall(text):
        starts.append(starts[-1] + len(line))

    def at(pos: tuple[int, int]) -> int:
        return starts[pos[0] - 1] + pos[1]

    return [
        (text[at(t.start) : at(t.end)], at(t.start) - 1, at(t.end) - 1, t.start[0], t.end[0])
        for t in _whole_fstrings(tokens[1:-1], text, at)  # without our own brackets
    ]


def _whole_fstrings(
    tokens: list[tokenize.TokenInfo], text: str, at: Callable[[tuple[int, int]], int]
) -> list[tokenize.TokenInfo]:
    """Since 3.12 an f-string is many tokens: make each one STRING again, kept as written."""
    out: list[tokenize.TokenInfo] = []
    depth, start = 0, (0, 0)
    for tok in tokens:
        if tok.type == _FSTRING_START:
            depth, start = depth + 1, tok.start if depth == 0 else start
        elif tok.type == _FSTRING_END and depth:
            depth -= 1
            if not depth:
                whole = text[at(start) : at(tok.end)]
                out.append(tokenize.TokenInfo(tokenize.STRING, whole, start, tok.end, ""))
        elif not depth:
            out.append(tok)
    return out


def _same(segment: str, node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return segment == node.id
    dotted = dotted_name(node) if isinstance(node, ast.expr) else None
    if dotted is not None:  # the common case, decided without parsing
        return "".join(segment.split()) == dotted
    try:
        if _squash(ast.unparse(node)) == _squash(segment):
            return True  # same text up to spacing and quotes: no need to parse
    except (ValueError, TypeError, AttributeError, RecursionError):
        pass
    try:
        with warnings.catch_warnings():  # e.g. an invalid escape: the file's, reported once
            warnings.simplefilter("ignore")
            return ast.dump(ast.parse(f"({segment})", mode="eval").body) == ast.dump(node)
    except (SyntaxError, ValueError, RecursionError):
        return False


def _squash(text: str) -> str:
    return "".join(text.split()).replace('"', "'")


def block_end(lines: Sequence[str], start: int) -> int:
    """The line (0-based) after the block whose header is on line `start`: the first line
    that is not blank and is indented no deeper than the header (a closing bracket of a
    multi-line signature is part of the block)."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines):
        current = lines[end]
        stripped = current.strip()
        if stripped and len(current) - len(current.lstrip()) <= indent and stripped[0] not in ")]":
            break
        end += 1
    return end


# A block's header at a line's start, for any name (a pattern made for each name asked
# costs a compile, 0.3 ms, per page: the regex cache holds none of them on a cold page)
_HEADERS = {
    "def": re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\("),
    "class": re.compile(r"^\s*class\s+(\w+)"),
}
_WORD = re.compile(r"\w+")


def block_span(
    lines: Sequence[str], name: str, line: int, keyword: str = "def"
) -> tuple[int, int] | None:
    """The lines (0-based, end excluded) of the last block at or above line `line` (1-based)
    whose header (`def name(` or `class name`) starts a line: up to the first non-blank line
    indented no deeper. Found in the text alone, so a reader of one function of a large file
    parses only that function (`parsed_block`)."""
    if not name.isidentifier():
        return None
    is_header = _header_test(name, keyword)
    # up from the line: a line without the name is passed over at the cost of a `in`
    index = min(line, len(lines)) - 1
    while index >= 0 and not (name in lines[index] and is_header(lines[index])):
        index -= 1
    return (index, block_end(lines, index)) if index >= 0 else None


def _header_test(name: str, keyword: str) -> Callable[[str], bool]:
    """Whether a line starts the block `keyword name`."""
    if not _WORD.fullmatch(name):
        # a name with a character `\w` does not take (a combining mark): its own pattern
        escaped = re.escape(name)
        own = rf"^\s*(?:async\s+)?def\s+{escaped}\s*\(" if keyword == "def" else ""
        pattern = re.compile(own or rf"^\s*class\s+{escaped}\b")
        return lambda text: pattern.match(text) is not None
    header = _HEADERS[keyword]

    def is_header(text: str) -> bool:
        found = header.match(text)
        return found is not None and found.group(1) == name

    return is_header


def parsed_block(lines: Sequence[str], start: int, end: int) -> tuple[ast.Module | None, int]:
    """Lines `start` to `end` (0-based, end excluded) parsed alone, at the file's line numbers,
    with the characters parsed; (None, n) when they do not parse alone."""
    # Blank lines before it give the nodes the file's line numbers (walking the tree to
    # renumber it costs more than parsing it).
    block = dedented(lines[start:end])
    try:
        return ast.parse("\n" * start + block), len(block)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, len(block)


def dedented(lines: Sequence[str]) -> str:
    """`textwrap.dedent` of the lines joined, cut at the first line's indentation when every
    other line that is not blank starts with it (a block from its header: one pass, no
    pattern per margin); else by `textwrap.dedent` itself."""
    if not lines:
        return ""
    first = lines[0]
    margin = first[: len(first) - len(first.lstrip(" \t"))]
    if not margin or first.isspace():
        return textwrap.dedent("\n".join(lines))
    cut = len(margin)
    out = []
    for text in lines:
        if text.startswith(margin):
            out.append(text[cut:] if text.strip(" \t") else "")
        elif not text.strip(" \t"):
            out.append("")  # blank: dedent empties a line of spaces and tabs only
        else:
            return textwrap.dedent("\n".join(lines))
    return "\n".join(out)
