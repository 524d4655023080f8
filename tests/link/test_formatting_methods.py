"""`__str__` calling a method of the class that formats what it is given."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

ERRORS = """
    class ParseError(Exception):
        def _format_expected(self, expected):
            if self.names:
                expected = [self.names[e] for e in expected]
            return "Expected one of: \\n\\t* %s\\n" % "\\n\\t* ".join(expected)

        def _where(self, line, column=0):
            return f"at line {line}, column {column}"

        def _key(self, token):
            return token.type

    class UnexpectedToken(ParseError):
        def __init__(self, token, expected, names=None):
            self.token = token
            self.expected = expected
            self.names = names

        def __str__(self):
            message = "Unexpected token %r %s.\\n" % (self.token, self._where(self.token.line))
            message += self._format_expected(self.expected)
            return message

    class UnknownKey(ParseError):
        def __init__(self, token):
            self.token = token

        def __str__(self):
            return f"Unknown key {self._key(self.token)} {self._where(column=4, line=2)}"
    """

PARSER = """
    from .errors import UnexpectedToken, UnknownKey

    def feed(token, states):
        if token.type not in states:
            raise UnexpectedToken(token, states)

    def key(token):
        raise UnknownKey(token)
    """


def link(files: dict[str, str]) -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version("demo", facts)


def shown(sites: list[IndexedSite], line: int) -> set[str]:
    return {f.text.text for s in sites if s.file == "grammar/parse.py" and s.site.line == line
            for f in s.shown}  # fmt: skip


def test_a_method_given_values_adds_its_text_with_them() -> None:
    sites = link({"grammar/errors.py": ERRORS, "grammar/parse.py": PARSER})
    # The returned text with its parameters bound to what `__str__` passes: the raise's
    # `states` and `self.token.line` stay open, and so does a default left to the method.
    assert shown(sites, 6) == {
        "Unexpected token {token!r} at line {self.token.line}, column {column}.\n"
        'Expected one of: \n\t* {"\\n\\t* ".join(expected)}\n'
    }
    # By keyword; a method that returns a value, not words (`token.type`), is not read.
    assert shown(sites, 9) == {"Unknown key {self._key(self.token)} at line 2, column 4"}


def test_only_methods_that_write_words_are_kept_with_their_parameters() -> None:
    [facts] = [extract_file("grammar/errors.py", textwrap.dedent(ERRORS).encode())]
    [base] = [t for t in facts.texts if t.qualname == "ParseError"]
    assert base.methods["_format_expected"].params == ("expected",)
    assert base.methods["_where"].params == ("line", "column")
    assert "_key" not in base.methods
    [token] = [t for t in facts.texts if t.qualname == "UnexpectedToken"]
    assert token.methods["__str__"].params == ()
