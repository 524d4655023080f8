"""Python code as Pygments tokens, read by the standard library's tokenizer.

Pygments' `PythonLexer` tries up to some 35 regular expressions at each position: about
2.5 ms for the forty lines an error page shows, a third of a cold page's HTML. `tokenize`
finds each token with one match. The tokens get the types `PythonLexer` gives the same
text, so Pygments' formatter and stylesheet colour them alike (`token_scan` runs the
tokenizer's loop, trimmed). What `tokenize` cannot read from where it stands (a snippet
cut inside a bracket or a string, a line dedented below the snippet's first) is lexed by
`PythonLexer` from there, so every snippet is shown.
"""

from __future__ import annotations

import io
import keyword
import tokenize
from collections.abc import Iterator

from pygments.lexer import Lexer, words
from pygments.lexers import PythonLexer
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    _TokenType,
)

from errdex.web.token_scan import scan

_CONSTANTS = {"True", "False", "None"}
_WORD_OPERATORS = {"and", "or", "not", "in", "is"}
_NAMESPACE = {"import", "from"}
_PSEUDO = {"self", "cls"}
_PUNCTUATION = set("()[]{},:;")
_OPENING = frozenset("([{")
_BRACKETS = _OPENING | frozenset(")]}")


def _pygments_words(state: str, kind: _TokenType) -> frozenset[str]:
    """The names PythonLexer gives `kind` in its `state`: the same names get the same colour."""
    return frozenset(
        name
        for rule in PythonLexer.tokens[state]
        if isinstance(rule[0], words) and rule[1] is kind
        for name in rule[0].words
    )


_BUILTINS = _pygments_words("builtins", Name.Builtin)
_EXCEPTIONS = _pygments_words("builtins", Name.Exception)
_MAGIC_FUNCTIONS = _pygments_words("magicfuncs", Name.Function.Magic)
_MAGIC_VARIABLES = _pygments_words("magicvars", Name.Variable.Magic)
_STRING_PREFIX = "rRuUbBfF"
_SKIPPED = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}

Tokens = Iterator[tuple[int, _TokenType, str]]


class TokenizeLexer(Lexer):
    """Python 3 source, tokenized by `tokenize`; `PythonLexer` past what it cannot read."""

    name = "Python (tokenize)"

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._fallback = PythonLexer(**options)

    def get_tokens_unprocessed(self, text: str) -> Tokens:
        lines = text.splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        done = 0  # the offset up to which tokens were given
        first = 0  # the line a run of the tokenizer starts at
        while first < len(lines):
            run = _Run(text, lines, starts, first, done)
            yield from run.tokens()
            done = run.done
            if run.failed_at is None:
                break
            if run.failed_at <= first:  # no headway: the rest is the regex lexer's
                rest = text[done:]
                for index, kind, value in self._fallback.get_tokens_unprocessed(rest):
                    yield done + index, kind, value
                return
            first = run.failed_at
        if done < len(text):
            yield done, Text.Whitespace if text[done:].isspace() else Text, text[done:]


class _Run:
    """One pass of the tokenizer from line `first`, until the text ends or it cannot go on
    (then `failed_at` is the line to start the next pass at)."""

    def __init__(self, text: str, lines: list[str], starts: list[int], first: int, done: int):
        self.text, self.lines, self.starts, self.first = text, lines, starts, first
        self.done = done
        self.failed_at: int | None = None
        self._previous = ""  # the last token read (words and operators)
        self._line_opener = ""  # the first word of the logical line
        self._decorating = False
        self._module_words = False  # in `import a.b` or `from a.b`: module names
        self._depth = 0  # brackets open: a line break inside them does not end the line

    def tokens(self) -> Tokens:
        readline = io.StringIO("".join(self.lines[self.first :])).readline
        starts, text, offset = self.starts, self.text, self.first - 1
        try:
            # the token's fields unpacked once; the gap before it given in place (a token's
            # handful of attribute reads and a generator each cost a third of the lexing)
            for type_, string, row, column in scan(readline):
                if type_ in _SKIPPED:
                    if type_ == tokenize.NEWLINE or (type_ == tokenize.NL and self._depth <= 0):
                        self._line_opener, self._decorating = "", False
                        self._module_words = False
                    continue
                start = starts[offset + row] + column
                done = self.done
                if start < done:  # a restart re-reads nothing already given
                    continue
                if start > done:
                    gap = text[done:start]
                    yield done, Text.Whitespace if gap.isspace() else Text, gap
                if type_ == tokenize.STRING:
                    body = string.lstrip(_STRING_PREFIX)
                    if len(body) < len(string):  # f"...", rb'...': the prefix apart
                        yield start, String.Affix, string[: len(string) - len(body)]
                        start, string = start + len(string) - len(body), body
                yield start, self._kind(type_, string), string
                self.done = start + len(string)
                if type_ == tokenize.OP:
                    if string in _BRACKETS:
                        self._depth += 1 if string in _OPENING else -1
                elif type_ != tokenize.NAME:
                    continue
                if not self._line_opener:
                    self._line_opener = string
                self._previous = string
        except IndentationError as error:
            # a dedent below the snippet's first line: read on from that line afresh
            self.failed_at = self.first + (error.lineno or 1) - 1
        except (tokenize.TokenError, SyntaxError):
            # the text ends inside a bracket or a string: the regex lexer takes the rest
            self.failed_at = self.first

    def _kind(self, type_: int, string: str) -> _TokenType:
        if type_ == tokenize.COMMENT:
            return Comment.Single
        if type_ == tokenize.STRING:
            return self._string(string)
        if type_ == tokenize.NUMBER:
            return _number(string)
        if type_ == tokenize.OP:
            if string == "@" and not self._line_opener:
                self._decorating = True
                return Name.Decorator
            if string == "." and self._module_words:
                return Name.Namespace
            return Punctuation if string in _PUNCTUATION else Operator
        if type_ == tokenize.NAME:
            return self._name(string)
        return Text

    def _string(self, body: str) -> _TokenType:
        if not self._line_opener and body[:3] in ('"""', "'''"):
            return String.Doc
        return String.Double if body[:1] == '"' else String.Single

    def _name(self, string: str) -> _TokenType:
        previous = self._previous
        if self._decorating and previous == "@":
            return Name.Decorator
        if string in _NAMESPACE and self._line_opener in ("", "from"):
            # `import a` and `from a` start module names; `from a import b` ends them
            self._module_words = not self._line_opener
            return Keyword.Namespace
        if self._module_words and not keyword.iskeyword(string):
            return Name.Namespace
        if keyword.iskeyword(string):
            if string in _CONSTANTS:
                return Keyword.Constant
            if string in _WORD_OPERATORS:
                return Operator.Word
            return Keyword
        if string in _MAGIC_FUNCTIONS:
            return Name.Function.Magic
        if string in _MAGIC_VARIABLES:
            return Name.Variable.Magic
        if previous == "def":
            return Name.Function
        if previous == "class":
            return Name.Class
        if previous == ".":
            return Name
        if string in _PSEUDO:
            return Name.Builtin.Pseudo
        if string in _EXCEPTIONS:
            return Name.Exception
        if string in _BUILTINS:
            return Name.Builtin
        return Name


def _number(string: str) -> _TokenType:
    lowered = string.lower()
    if lowered.startswith("0x"):
        return Number.Hex
    if lowered.startswith("0o"):
        return Number.Oct
    if lowered.startswith("0b"):
        return Number.Bin
    if any(c in lowered for c in ".ej"):
        return Number.Float
    return Number.Integer
