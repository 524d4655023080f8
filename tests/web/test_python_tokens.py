"""The page's Python tokens: every character kept, each token typed as Pygments types it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pygments.lexers import PythonLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, String, _TokenType

from errdex.web.python_tokens import _FIXED, _LATER, TokenizeLexer

LEXER = TokenizeLexer(stripnl=False, ensurenl=True)


def tokens(code: str) -> list[tuple[_TokenType, str]]:
    return [(kind, value) for kind, value in LEXER.get_tokens(code) if value.strip()]


def kind_of(code: str, text: str) -> _TokenType:
    return next(kind for kind, value in tokens(code) if value == text)


CODE = textwrap.dedent(
    '''\
    from os import path as p
    import collections.abc

    @functools.lru_cache(maxsize=4)
    def parse(self, x: int = 0x1F) -> None:
        """Read it."""
        if x is not None and y in (1, 2.5):
            raise ValueError(f"bad {x}", b'a') from None  # never
        print(len(x)); self.b = super().__init__()
    class Thing(Base):
        __slots__ = ()
    '''
)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("from", Keyword.Namespace),
        ("os", Name.Namespace),
        ("path", Name),
        ("collections", Name.Namespace),
        ("@", Name.Decorator),
        ("functools", Name.Decorator),
        ("lru_cache", Name),
        ("def", Keyword),
        ("parse", Name.Function),
        ("self", Name.Builtin.Pseudo),
        ("int", Name.Builtin),
        ("0x1F", Number.Hex),
        ("2.5", Number.Float),
        ("None", Keyword.Constant),
        ('"""Read it."""', String.Doc),
        ("is", Operator.Word),
        ("raise", Keyword),
        ("ValueError", Name.Exception),
        ("f", String.Affix),
        ('"bad {x}"', String.Double),
        ("'a'", String.Single),
        ("# never", Comment.Single),
        ("print", Name.Builtin),
        ("__init__", Name.Function.Magic),
        ("Thing", Name.Class),
        ("__slots__", Name.Variable.Magic),
    ],
)
def test_a_token_gets_the_type_pygments_gives_it(text: str, kind: _TokenType) -> None:
    assert kind_of(CODE, text) is kind
    # PythonLexer joins `@functools` and splits strings at their quotes; the rest are alike
    if text not in ("@", "functools", '"bad {x}"', "'a'", "from"):
        assert (kind, text) in [(k, v) for k, v in PythonLexer().get_tokens(CODE)]


def test_a_word_typed_by_table_gets_the_type_pygments_gives_it() -> None:
    """The lexer types a name by two tables (keywords and magic names, then builtins and
    `self`) instead of a chain of tests per token: each word of them in an expression is
    typed as `PythonLexer` types it (but `import` and `from`, typed by their place)."""
    words = sorted({*_FIXED, *_LATER} - {"import", "from"})
    assert len(words) > 250  # every keyword, builtin, exception and magic name
    for word in words:
        code = f"x = {word}\n"
        ours = [kind for kind, value in LEXER.get_tokens(code) if value == word]
        theirs = [kind for kind, value in PythonLexer().get_tokens(code) if value == word]
        assert ours == theirs, word


def test_raise_from_is_a_keyword_not_an_import() -> None:
    froms = [kind for kind, value in tokens(CODE) if value == "from"]
    assert froms == [Keyword.Namespace, Keyword]


def joined(code: str) -> str:
    return "".join(value for _, value in LEXER.get_tokens(code))


@pytest.mark.parametrize(
    "code",
    [
        # cut inside a bracket: the text ends in the middle of a call
        "result = call(\n    first,\n    second,\n",
        # cut inside a docstring
        'def f():\n    """Starts here\n    and never ends\n',
        # starts indented, then dedents below its first line
        "        return x\n    y = 1\n  z = 2\nif z:\n    pass\n",
        # starts inside a string that ends on its second line
        'the middle of a docstring\n    """\n    return 1\n',
        # tabs, a line continuation, a form feed, a stray character
        "if a and \\\n\tb:\n\x0c    c = $x\n",
    ],
)
def test_every_character_is_kept_whatever_the_cut(code: str) -> None:
    assert joined(code) == code


def test_code_after_a_dedent_below_the_first_line_is_still_read() -> None:
    code = "        return x\n    y = 1\n  z = 2\nif z:\n    raise KeyError\n"
    assert kind_of(code, "if") is Keyword
    assert kind_of(code, "KeyError") is Name.Exception


def test_real_files_cut_anywhere_keep_their_text() -> None:
    """Forty-line windows of real modules (this package's and the standard library's), the
    cut falling where it may, as a page's snippet does."""
    import tokenize as some_module

    own = sorted(Path(__file__).parents[2].glob("src/errdex/*/*.py"))[:20]
    files = [Path(some_module.__file__), *own]
    for file in files:
        lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
        for start in range(0, max(1, len(lines) - 40), 17):
            window = "".join(lines[start : start + 40])
            assert joined(window) == window, (file.name, start)
