"""Lookup of what a program printed around an error: a log line or a parser error holding
another site's text, a log line with almost no words of its own, and a printed warning whose
code line says which of two sites warned. Each shape is one the test-suite set
(`bench/accuracy/suites`) has, written here as a small package of its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import lookup_text
from errdex.match.clues import printed_call
from errdex.store.base import Store
from samples import first_match, indexed_store

# Two classes whose `decode` warns the same text (pyjwt's `PyJWT.decode` and `PyJWS.decode`).
DECODER = """
    import warnings

    class Owner:
        def decode(self, token, **kwargs):
            if kwargs:
                warnings.warn(
                    f"passing extra arguments to decode() is deprecated: {tuple(kwargs)}",
                    DeprecationWarning,
                    stacklevel=2,
                )
            return token
"""

PACKAGE = {
    "kit/__init__.py": "",
    "kit/checks.py": """
        class CheckError(Exception):
            pass

        def check_name(name):
            if not name.isidentifier():
                raise CheckError(f"unknown named placeholder {name!r}")

        def check_path(path):
            if not path:
                raise CheckError(f"Input path: {path} does not exist")
    """,
    "kit/cli.py": """
        import logging
        import optparse

        from kit.checks import CheckError, check_name, check_path

        log = logging.getLogger("kit")

        def compile_all(path, entries):
            for lineno, name in entries:
                try:
                    check_name(name)
                except CheckError as error:
                    log.error("error: %s:%d: %s", path, lineno, error)

        def main(argv):
            parser = optparse.OptionParser()
            options, args = parser.parse_args(argv)
            try:
                check_path(args[0])
            except CheckError as err:
                parser.error(str(err))

        def report(conflicts):
            for rule in conflicts:
                log.warning(" * %s", rule)
    """,
    "kit/keys.py": """
        import warnings

        class ShortKeyWarning(UserWarning):
            pass

        def key_problem(key):
            if len(key) < 32:
                return f"The key is {len(key)} bytes long, below the minimum of 32 bytes."
            return None

        class Signer:
            def sign(self, payload, key):
                problem = key_problem(key)
                if problem:
                    warnings.warn(problem, ShortKeyWarning, stacklevel=2)
                return payload

            def _check(self, payload, key):
                if payload is None:
                    return payload
                problem = key_problem(key)
                if problem:
                    warnings.warn(problem, ShortKeyWarning, stacklevel=4)
                return payload

            def verify_complete(self, payload, key):
                return self._check(payload, key)

            def verify(self, payload, key):
                return self.verify_complete(payload, key)
    """,
    "kit/tokens.py": DECODER.replace("Owner", "Tokens"),
    "kit/parts.py": DECODER.replace("Owner", "Parts"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("kit"), "kit", {"1.0": PACKAGE})
    yield db
    db.close()


def test_a_log_line_around_a_caught_error_is_the_log_call(store: Store) -> None:
    # babel's `log.error('error: %s:%d: %s', po_file, lineno, error)`, as logging prints it
    # and as the message alone.
    for paste in (
        "ERROR:kit:error: i18n/fi/LC_MESSAGES/messages.po:4: unknown named placeholder 'merkki'",
        "error: i18n/fi/LC_MESSAGES/messages.po:4: unknown named placeholder 'merkki'",
    ):
        found = first_match(store, paste)
        assert (found.file, found.function) == ("kit/cli.py", "compile_all")
        # (the caught text's raise is named, whether the index holds the wrapped text or
        # lookup found it inside the line)
        assert any("{error}" in why and "kit/checks.py:7" in why for why in found.why)
        assert found.confident
    # The inner text alone is the raise's.
    found = first_match(store, "CheckError: unknown named placeholder 'merkki'")
    assert (found.file, found.function) == ("kit/checks.py", "check_name")


def test_a_parser_error_printing_a_caught_error(store: Store) -> None:
    # `parser.error(str(err))`: optparse prints the usage, then `prog: error: <the text>`.
    found = first_match(
        store,
        """
        Usage: __main__.py extract [options] <input-paths>

        __main__.py: error: Input path: babel does not exist
        """,
    )
    assert (found.file, found.function) == ("kit/cli.py", "main")
    assert found.shown is not None and found.shown.startswith("{prog}: error: ")
    assert any("{err}" in why and "kit/checks.py:11" in why for why in found.why)


def test_a_log_line_of_few_words_found_by_its_logger(store: Store) -> None:
    # lark's `logger.warning(' * %s', rule)`: no word to search for; the logger is `kit`.
    for paste in ("WARNING:kit: * <as : >", "WARNING:kit: * <as : __as_star_0>"):
        found = first_match(store, paste)
        assert (found.file, found.function) == ("kit/cli.py", "report")
        assert not found.confident
    # Another logger's line is not this package's.
    assert not lookup_text(store, "WARNING:other: * <as : >").matches


def test_the_warning_line_calls_the_function_that_warned(store: Store) -> None:
    # pyjwt's key-length warning is warned in `encode` and in `_verify_signature`: the line
    # printed under the place (stacklevel=2: the caller's) calls `sign`.
    found = first_match(
        store,
        """
        /home/dev/app/tests/test_keys.py:589: ShortKeyWarning: The key is 1 bytes long, below the minimum of 32 bytes.
          signed = signer.sign(payload, secret)
        """,  # noqa: E501
    )
    assert (found.file, found.function) == ("kit/keys.py", "Signer.sign")
    assert "the line printed under the warning calls Signer.sign" in found.why


def test_the_warning_line_calls_a_function_that_reaches_the_one_that_warned(
    store: Store,
) -> None:
    # pyjwt's `jws.decode(` printed under the warning of `_verify_signature` (stacklevel=4):
    # `decode` calls `decode_complete`, which calls it.
    found = first_match(
        store,
        """
        /home/dev/app/tests/test_keys.py:591: ShortKeyWarning: The key is 1 bytes long, below the minimum of 32 bytes.
          verified = signer.verify(payload, secret)
        """,  # noqa: E501
    )
    assert (found.file, found.function) == ("kit/keys.py", "Signer._check")
    assert (
        "the line printed under the warning calls Signer.verify, which reaches Signer._check"
        in found.why
    )


def test_the_receiver_names_the_class_of_two_alike_methods(store: Store) -> None:
    found = first_match(
        store,
        """
        /home/dev/app/main.py:12: DeprecationWarning: passing extra arguments to decode() is deprecated: ('foo',)
          tokens.decode(raw, foo="bar")
        """,  # noqa: E501
    )
    assert (found.file, found.function) == ("kit/tokens.py", "Tokens.decode")
    found = first_match(
        store,
        """
        /home/dev/app/main.py:14: DeprecationWarning: passing extra arguments to decode() is deprecated: ('foo',)
          self._parts.decode(raw, foo="bar")
        """,  # noqa: E501
    )
    assert (found.file, found.function) == ("kit/parts.py", "Parts.decode")


def test_printed_call_reads_the_call_not_the_words() -> None:
    assert printed_call("jws_message = jws.encode(payload, secret)", "PyJWS.encode", "a.py") == 2
    assert printed_call("return self._jws.encode(", "PyJWS.encode", "jwt/api_jws.py") == 2
    assert printed_call("jwt.decode(token)", "PyJWT.decode", "jwt/api_jwt.py") == 2
    assert printed_call("jwt.decode(token)", "PyJWS.decode", "jwt/api_jws.py") == 1
    assert printed_call("encode = 3", "PyJWS.encode", "a.py") == 0
    assert printed_call(None, "encode", "a.py") == 0


# A command-line framework, and a program that ships its own copy of it and draws its errors
# in rich panels (typer's `typer/_click` and `rich_utils`, beside click itself).
FRAMEWORK = """
    import sys

    class UsageError(Exception):
        def __init__(self, message):
            super().__init__(message)
            self.message = message

        def show(self):
            print(f"Error: {self.message}", file=sys.stderr)

    def parse(args):
        if not args:
            raise UsageError(f"Missing argument {'NAME'!r}.")
        return args
"""


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("programs")
    db = indexed_store(root / "framework", "clack", {"8.0": {"clack/__init__.py": FRAMEWORK}})
    db.close()
    program = {
        "tyro/__init__.py": "",
        "tyro/_clack.py": FRAMEWORK,
        "tyro/panels.py": """
            from rich.panel import Panel

            def show_error(error):
                return Panel(str(error), title="Error")
        """,
    }
    db = indexed_store(root / "framework", "tyro", {"0.9": program})
    yield db
    db.close()


def test_an_error_in_a_rich_panel_is_the_program_s_that_draws_panels(programs: Store) -> None:
    # typer's output (the suites set's typer-50), where click 8 raises the same text.
    found = first_match(
        programs,
        """
        Usage: main [OPTIONS] NAME
        Try 'main --help' for help.
        ╭─ Error ──────────────────────────────────────────────────────────────────────╮
        │ Missing argument 'NAME'.                                                     │
        ╰──────────────────────────────────────────────────────────────────────────────╯
        """,
    )
    assert (found.project, found.file) == ("tyro", "tyro/_clack.py")
    assert "printed in a rich panel, as this release draws its errors" in found.why
    # Plain `Error: ...` is no panel: nothing prefers the program then.
    plain = lookup_text(programs, "Error: Missing argument 'NAME'.").matches
    assert {m.project for m in plain[:2]} == {"clack", "tyro"}
