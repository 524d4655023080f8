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
from tokenize import COMMENT, NAME, NEWLINE, NL, NUMBER, OP, STRING

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


# A name's type where the words before it do not decide it (`previous`, the line's first
# word): keywords and magic names first, then what the word before it makes of any name
# (`def x`, `class X`, `a.x`), then the builtins and `self`; any other name is a `Name`.
_FIXED: dict[str, _TokenType] = {
    **dict.fromkeys(keyword.kwlist, Keyword),
    **dict.fromkeys(_CONSTANTS, Keyword.Constant),
    **dict.fromkeys(_WORD_OPERATORS, Operator.Word),
    **dict.fromkeys(_MAGIC_FUNCTIONS, Name.Function.Magic),
    **dict.fromkeys(_MAGIC_VARIABLES, Name.Variable.Magic),
}
_NAMED_BY: dict[str, _TokenType] = {"def": Name.Function, "class": Name.Class, ".": Name}
_LATER: dict[str, _TokenType] = {
    **dict.fromkeys(_BUILTINS, Name.Builtin),
    **dict.fromkeys(_EXCEPTIONS, Name.Exception),
    **dict.fromkeys(_PSEUDO, Name.Builtin.Pseudo),
}
_KEYWORDS = frozenset(keyword.kwlist)


class _Run:
    """One pass of the tokenizer from line `first`, until the text ends or it cannot go on
    (then `failed_at` is the line to start the next pass at)."""

    def __init__(self, text: str, lines: list[str], starts: list[int], first: int, done: int):
        self.text, self.lines, self.starts, self.first = text, lines, starts, first
        self.done = done
        self.failed_at: int | None = None

    def tokens(self) -> Tokens:
        """Each token typed, the gaps between them given in place. One loop with its state
        in locals and a name typed by table (the type Pygments gives a word, by the word and
        the one before it): a snippet's few hundred tokens went through a method or two each,
        reading and writing the state on the run, 0.3 of the 0.6 ms its HTML took."""
        readline = io.StringIO("".join(self.lines[self.first :])).readline
        starts, text, offset = self.starts, self.text, self.first - 1
        done = self.done  # the offset up to which tokens were given
        previous = ""  # the last token read (words and operators)
        line_opener = ""  # the first word of the logical line
        decorating = False
        module_words = False  # in `import a.b` or `from a.b`: module names
        depth = 0  # brackets open: a line break inside them does not end the line
        try:
            # the token's fields unpacked once; the gap before it given in place (a token's
            # handful of attribute reads and a generator each cost a third of the lexing)
            for type_, string, row, column in scan(readline):
                if type_ in _SKIPPED:
                    if type_ == NEWLINE or (type_ == NL and depth <= 0):
                        line_opener, decorating, module_words = "", False, False
                    continue
                start = starts[offset + row] + column
                if start < done:  # a restart re-reads nothing already given
                    continue
                if start > done:
                    gap = text[done:start]
                    yield done, Text.Whitespace if gap.isspace() else Text, gap
                if type_ == NAME:
                    if decorating and previous == "@":
                        kind = Name.Decorator
                    elif string in _NAMESPACE and line_opener in ("", "from"):
                        # `import a` and `from a` start module names; `from a import b`
                        # ends them
                        module_words = not line_opener
                        kind = Keyword.Namespace
                    elif module_words and string not in _KEYWORDS:
                        kind = Name.Namespace
                    else:
                        found = _FIXED.get(string)
                        if found is None:
                            found = _NAMED_BY.get(previous)
                            if found is None:
                                found = _LATER.get(string, Name)
                        kind = found
                elif type_ == OP:
                    if string == "@" and not line_opener:
                        decorating = True
                        kind = Name.Decorator
                    elif string == "." and module_words:
                        kind = Name.Namespace
                    else:
                        kind = Punctuation if string in _PUNCTUATION else Operator
                    if string in _BRACKETS:
                        depth += 1 if string in _OPENING else -1
                else:
                    if type_ == STRING:
                        body = string.lstrip(_STRING_PREFIX)
                        if len(body) < len(string):  # f"...", rb'...': the prefix apart
                            yield start, String.Affix, string[: len(string) - len(body)]
                            start, string = start + len(string) - len(body), body
                        if not line_opener and string[:3] in ('"""', "'''"):
                            kind = String.Doc
                        else:
                            kind = String.Double if string[:1] == '"' else String.Single
                    elif type_ == COMMENT:
                        kind = Comment.Single
                    elif type_ == NUMBER:
                        kind = _number(string)
                    else:
                        kind = Text
                    yield start, kind, string
                    done = start + len(string)
                    continue
                yield start, kind, string
                done = start + len(string)
                if not line_opener:
                    line_opener = string
                previous = string
        except IndentationError as error:
            # a dedent below the snippet's first line: read on from that line afresh
            self.failed_at = self.first + (error.lineno or 1) - 1
        except (tokenize.TokenError, SyntaxError):
            # the text ends inside a bracket or a string: the regex lexer takes the rest
            self.failed_at = self.first
        finally:
            self.done = done


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
