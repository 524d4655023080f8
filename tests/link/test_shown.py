"""The texts a user sees for a site, composed away from the raise, per concrete class."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite


def link(files: dict[str, str]) -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version("demo", facts)


def shown(sites: list[IndexedSite], line: int, file: str | None = None) -> dict[str, str]:
    """{text: how} of the site at `line` (of `file`, else of the only file with sites)."""
    [site] = [s for s in sites if s.site.line == line and (file is None or s.file == file)]
    return {form.text.text: form.how for form in site.shown}


HTTP = {
    "web/http.py": """
        HTTP_STATUS_CODES = {400: "Bad Request", 404: "Not Found"}
        """,
    "web/exceptions.py": """
        class HTTPException(Exception):
            code: int | None = None
            description: str | None = None

            def __init__(self, description=None, response=None):
                super().__init__()
                if description is not None:
                    self.description = description
                self.response = response

            @property
            def name(self):
                from .http import HTTP_STATUS_CODES

                return HTTP_STATUS_CODES.get(self.code, "Unknown Error")

            def __str__(self):
                code = self.code if self.code is not None else "???"
                return f"{code} {self.name}: {self.description}"

        class BadRequest(HTTPException):
            code = 400
            description = (
                "The browser (or proxy) sent a request that this server could not understand."
            )
        """,
    "web/errors.py": """
        from .exceptions import BadRequest

        class NotFound(BadRequest):
            code = 404
            description = "The requested URL was not found on the server."

        class SecurityError(BadRequest):
            pass
        """,
    "web/views.py": """
        from .errors import NotFound, SecurityError
        from .exceptions import BadRequest

        def load(data, error):
            if error is not None:
                raise BadRequest(f"Failed to decode JSON object: {error}")
            if not data:
                raise NotFound()
            raise SecurityError(description=f"Host {data!r} is not trusted")
        """,
}


def test_str_through_the_class_raised_its_bases_and_arguments() -> None:
    sites = link(HTTP)
    assert shown(sites, 7) == {"400 Bad Request: Failed to decode JSON object: {error}": "str(exc)"}
    # The subclass's own class attributes, across files; the name from a constant table
    # that the property imports where it is used.
    assert shown(sites, 9) == {
        "404 Not Found: The requested URL was not found on the server.": "str(exc)"
    }
    # A keyword argument is bound to its parameter; an inherited code and name.
    assert shown(sites, 10) == {"400 Bad Request: Host {data!r} is not trusted": "str(exc)"}


CLICK = {
    "cli/exceptions.py": """
        class ClickException(Exception):
            def __init__(self, message):
                super().__init__(message)
                self.message = message

            def format_message(self):
                return self.message

            def show(self, file=None):
                echo(_("Error: {message}").format(message=self.format_message()), file=file)

        class BadParameter(ClickException):
            def __init__(self, message, ctx=None, param=None, param_hint=None):
                super().__init__(message)
                self.param_hint = param_hint

            def format_message(self):
                if self.param_hint is None:
                    return _("Invalid value: {message}").format(message=self.message)
                return _("Invalid value for {param_hint}: {message}").format(
                    param_hint=self.param_hint, message=self.message
                )
        """,
    "cli/types.py": """
        from .exceptions import BadParameter

        class Path:
            def fail(self, message, param=None, ctx=None):
                raise BadParameter(message, ctx=ctx, param=param)

            def convert(self, value, param, ctx):
                if not exists(value):
                    self.fail(f"Path {value!r} does not exist.", param, ctx)
                raise BadParameter("must be a file", param_hint="'-f'")
        """,
}


def test_format_message_and_what_show_prints_around_it() -> None:
    sites = link(CLICK)
    # Through a raising helper (`self.fail`): the message it was given is the message.
    assert shown(sites, 10, "cli/types.py") == {
        "Invalid value for {self.param_hint}: Path {value!r} does not exist.": "format_message()",
        "Invalid value: Path {value!r} does not exist.": "format_message()",
        "Error: Invalid value for {self.param_hint}: Path {value!r} does not exist.": (
            "printed by BadParameter.show()"
        ),
        "Error: Invalid value: Path {value!r} does not exist.": "printed by BadParameter.show()",
    }
    # A keyword argument fills the hint in.
    assert shown(sites, 11, "cli/types.py") == {
        "Invalid value for '-f': must be a file": "format_message()",
        "Invalid value: must be a file": "format_message()",
        "Error: Invalid value for '-f': must be a file": "printed by BadParameter.show()",
        "Error: Invalid value: must be a file": "printed by BadParameter.show()",
    }


def test_frameworks_from_outside_print_their_own_frame() -> None:
    sites = link(
        {
            "app/cli.py": """
                import argparse
                import logging
                import warnings

                import click

                logger = logging.getLogger(__name__)

                def run(path, count):
                    if not path:
                        raise click.BadParameter(f"{path!r} is empty")
                    if count < 0:
                        raise argparse.ArgumentTypeError(f"{count} is negative")
                    if count > 10:
                        logger.warning("Counting past %d", count)
                    warnings.warn("count is deprecated", DeprecationWarning)
                    if count == 3:
                        parser.error(f"{count} is unlucky")
                """
        }
    )
    assert shown(sites, 12) == {
        "Invalid value for {param_hint}: {path!r} is empty": "format_message()",
        "Error: Invalid value for {param_hint}: {path!r} is empty": "printed by click",
        "Invalid value: {path!r} is empty": "format_message()",
        "Error: Invalid value: {path!r} is empty": "printed by click",
    }
    assert shown(sites, 14) == {
        "{prog}: error: argument {argument}: {count} is negative": "printed by argparse"
    }
    assert shown(sites, 16) == {
        "WARNING:{logger.name}:Counting past {count:d}": "printed by logging"
    }
    assert shown(sites, 17) == {
        "{filename}:{lineno}: DeprecationWarning: count is deprecated": "printed by warnings"
    }
    assert shown(sites, 19) == {"{prog}: error: {count} is unlucky": "printed by argparse"}


def test_builtin_rules_for_several_arguments() -> None:
    sites = link(
        {
            "app/checks.py": """
                def check(attribute, instance, value, path):
                    if value not in "abc":
                        raise ValueError(f"'x' must be in 'abc' (got {value!r})", attribute, 3)
                    if path is None:
                        raise KeyError("no path given")
                    if not path:
                        raise FileNotFoundError(2, "No such file or directory", path)
                    raise ValueError("one argument says what it says")

                class AppError(Exception):
                    pass

                def fail(name):
                    raise AppError("cannot load", name)
                """
        }
    )
    assert shown(sites, 4) == {
        "(\"'x' must be in 'abc' (got {value!r})\", {attribute!r}, 3)": "str(exc)"
    }
    assert shown(sites, 6) == {"'no path given'": "str(exc)"}
    assert shown(sites, 8) == {"[Errno 2] No such file or directory: {path!r}": "str(exc)"}
    assert shown(sites, 9) == {}
    # A class of the codebase with no `__init__` or `__str__` prints as its builtin base.
    assert shown(sites, 15) == {"('cannot load', {name!r})": "str(exc)"}


TABLES = {
    "forms/fields.py": """
        from .errors import ValidationError

        class Field:
            default_error_messages = {"required": "Missing data for required field."}

            def make_error(self, key, **kwargs):
                msg = self.error_messages[key]
                return ValidationError(msg.format(**kwargs))

            def deserialize(self, value):
                if value is None:
                    raise self.make_error("required")

        class Number(Field):
            default_error_messages = {"invalid": "Not a valid number."}

            def _validated(self, value):
                if not is_number(value):
                    raise self.make_error("invalid")
                raise ValidationError(self.error_messages["invalid"])
        """,
    "forms/more.py": """
        from .fields import Number

        class Integer(Number):
            default_error_messages = {"invalid": "Not a valid integer."}

        class StrictInteger(Integer):
            pass

        class Decimal(Number):
            default_error_messages = {"special": "Special numeric values are not permitted."}
        """,
    "forms/errors.py": """
        class ValidationError(Exception):
            pass
        """,
}


def test_a_message_table_gives_each_subclass_its_own_text() -> None:
    sites = link(TABLES)
    by_line = {s.site.line: s for s in sites if s.file == "forms/fields.py"}
    raised = by_line[20]
    assert raised.site.message is not None
    assert raised.site.message.text == "Not a valid number."
    # Integer overrides the entry (StrictInteger inherits Integer's: the same text once);
    # Decimal keeps Number's.
    assert [(f.text.text, f.cls, f.how) for f in raised.shown] == [
        ("Not a valid integer.", "forms.more.Integer", "Integer's error_messages['invalid']")
    ]
    assert [f.text.text for f in by_line[21].shown] == ["Not a valid integer."]
    assert by_line[13].shown == ()  # no subclass overrides "required"


def test_a_property_of_the_raising_object_builds_the_message() -> None:
    sites = link(
        {
            "tpl/runtime.py": """
                from .exceptions import UndefinedError

                class Undefined:
                    def __init__(self, hint=None, obj=None, name=None):
                        self._undefined_hint = hint
                        self._undefined_obj = obj
                        self._undefined_name = name

                    @property
                    def _undefined_message(self):
                        if self._undefined_hint:
                            return self._undefined_hint
                        if self._undefined_obj is None:
                            return f"{self._undefined_name!r} is undefined"
                        kind = type(self._undefined_obj).__name__
                        return f"{kind!r} has no attribute {self._undefined_name!r}"

                    def _fail_with_undefined_error(self, *args):
                        raise UndefinedError(self._undefined_message)
                """,
            "tpl/exceptions.py": """
                class UndefinedError(Exception):
                    pass
                """,
        }
    )
    # Each return is a text of its own (the hint, any text at all, says nothing).
    assert shown(sites, 20) == {
        "{self._undefined_name!r} is undefined": "Undefined._undefined_message",
        "{type(self._undefined_obj).__name__!r} has no attribute {self._undefined_name!r}": (
            "Undefined._undefined_message"
        ),
    }


def test_str_that_adds_to_what_the_base_prints() -> None:
    sites = link(
        {
            "svc/exceptions.py": """
                class ClientError(ValueError):
                    pass

                class ValidationError(ClientError):
                    def __init__(self, message, *, parameter=None, value=None):
                        super().__init__(message)
                        self.parameter = parameter

                    def __str__(self):
                        base = super().__str__()
                        extras = []
                        if self.parameter is not None:
                            extras.append(f"parameter={self.parameter}")
                        return f"{base} ({', '.join(extras)})" if extras else base

                def check(tokens):
                    if not tokens:
                        raise ValidationError("Can't process an empty prompt.", parameter="prompt")
                """
        }
    )
    assert shown(sites, 19) == {"Can't process an empty prompt. ({', '.join(extras)})": "str(exc)"}


def test_a_parameter_given_none_takes_the_text_init_falls_back_to() -> None:
    # click's `NoSuchOption` and `MissingParameter`, shortened: `if message is None:
    # message = ...` before passing it on, and `message or ""` passed on.
    sites = link(
        {
            "cli/errors.py": """
                class UsageError(Exception):
                    def __init__(self, message, ctx=None):
                        super().__init__(message)
                        self.message = message

                    def format_message(self):
                        return self.message

                class NoSuchOption(UsageError):
                    def __init__(self, option_name, message=None, possibilities=None):
                        if message is None:
                            message = f"No such option: {option_name}"
                        super().__init__(message)
                        self.possibilities = possibilities

                class Missing(UsageError):
                    def __init__(self, message=None, hint=None):
                        super().__init__(message or self.gettext("Missing a value."))
                """,
            "cli/parser.py": """
                from .errors import Missing, NoSuchOption

                def match(opt, given):
                    if opt not in given:
                        raise NoSuchOption(opt, possibilities=given)
                    if not given[opt]:
                        raise Missing(hint=opt)
                """,
        }
    )
    assert shown(sites, 6, "cli/parser.py") == {"No such option: {opt}": "format_message()"}
    # The fallback is what reaches the base: the class's message.
    [missing] = [s for s in sites if s.site.line == 8]
    assert missing.site.message is not None
    assert missing.site.message.text == "Missing a value."


def test_an_http_status_given_no_detail_shows_its_reason_phrase() -> None:
    # starlette's `HTTPException`, and the `HTTPStatus(code).phrase` spelling of the same.
    sites = link(
        {
            "web/exceptions.py": """
                import http.client
                from http import HTTPStatus

                class HTTPException(Exception):
                    def __init__(self, status_code, detail=None):
                        if detail is None:
                            detail = http.client.responses.get(status_code, "")
                        self.status_code = status_code
                        self.detail = detail

                    def __str__(self):
                        return f"{self.status_code}: {self.detail}"

                class Abort(Exception):
                    def __init__(self, code):
                        self.code = code

                    def __str__(self):
                        return f"{self.code} {HTTPStatus(self.code).phrase}"
                """,
            "web/endpoints.py": """
                from .exceptions import Abort, HTTPException

                def dispatch(method, status):
                    if method == "TRACE":
                        raise HTTPException(status_code=405)
                    if method == "PUT":
                        raise HTTPException(status)
                    raise Abort(404)
                """,
        }
    )
    assert shown(sites, 6, "web/endpoints.py") == {"405: Method Not Allowed": "str(exc)"}
    assert shown(sites, 8, "web/endpoints.py") == {"{status}: {self.detail}": "str(exc)"}
    assert shown(sites, 9, "web/endpoints.py") == {"404 Not Found": "str(exc)"}


def test_the_raise_in_a_helper_shows_what_its_callers_give_it() -> None:
    # click's `Context.fail(message)`: the raise is in `fail`, the text at its callers.
    sites = link(
        {
            "cli/core.py": """
                class UsageError(Exception):
                    def __init__(self, message, ctx=None):
                        super().__init__(message)
                        self.message = message

                    def format_message(self):
                        return self.message

                class Context:
                    def fail(self, message):
                        raise UsageError(message, self)

                def parse_args(ctx, args):
                    if args:
                        ctx.fail(f"Got unexpected extra arguments ({' '.join(args)})")
                    ctx.fail("Missing command.")
                """
        }
    )
    assert shown(sites, 12) == {
        "Got unexpected extra arguments ({' '.join(args)})": "given by parse_args",
        "Missing command.": "given by parse_args",
    }


def test_a_text_given_by_a_call_keeps_the_file_of_the_call() -> None:
    # A call in the package's tests lends its text: where the call is tells it apart.
    sites = link(
        {
            "lib/checks.py": """
                class Invalid(Exception):
                    pass

                def require(value, message):
                    if not value:
                        raise Invalid(message)
                """,
            "lib/tests/test_checks.py": """
                from lib.checks import require

                def test_require():
                    require("", "the field is empty")
                """,
        }
    )
    [site] = [s for s in sites if s.file == "lib/checks.py" and s.site.line == 7]
    given = {form.text.text: (form.caller, form.caller_file) for form in site.shown}
    assert given["the field is empty"] == ("test_require", "lib/tests/test_checks.py")


def test_a_factory_given_a_message_shows_what_init_wraps_it_in() -> None:
    # tomlkit 0.12.5: `self.parse_error(ParseError, f'Invalid key "{key}"')`, and
    # `ParseError.__init__` passes on `f"{message} at line {self._line} col {self._col}"`.
    sites = link(
        {
            "toml/parser.py": """
                class ParseError(ValueError):
                    def __init__(self, line, col, message=None):
                        self._line = line
                        self._col = col
                        if message is None:
                            message = "TOML parse error"
                        super().__init__(f"{message} at line {self._line} col {self._col}")

                class Parser:
                    def parse_error(self, exception=ParseError, *args):
                        return exception(self.line, self.col, *args)

                    def bare_key(self, key):
                        if " " in key:
                            raise self.parse_error(ParseError, f'Invalid key "{key}"')
                        raise ParseError(0, 0, f"Empty key {key}")
                """
        }
    )
    assert shown(sites, 16) == {
        'Invalid key "{key}" at line {self._line} col {self._col}': "str(exc)"
    }
    # A raise giving its own arguments: its message is the composed one, nothing more.
    assert shown(sites, 17) == {}


def test_an_init_that_never_calls_its_base_leaves_the_raise_arguments_in_args() -> None:
    # `BaseException.__new__` keeps the positional arguments as `args`; an `__init__` that
    # never calls its base's leaves them there, and `str(exc)` prints their tuple.
    sites = link(
        {
            "app/ws.py": """
                class Disconnect(Exception):
                    def __init__(self, code=1000, reason=None):
                        self.code = code
                        self.reason = reason or ""

                class Closed(Exception):
                    def __init__(self, code, reason=None):
                        super().__init__(code)
                        self.reason = reason

                def receive(message):
                    if message["type"] == "close":
                        raise Disconnect(message["code"], message.get("reason"))
                    if message["type"] == "gone":
                        raise Disconnect(code=1006, reason="gone away")
                    raise Closed(message["code"], "going away")
                """
        }
    )
    assert shown(sites, 14) == {'({message["code"]!r}, {message.get("reason")!r})': "str(exc)"}
    assert shown(sites, 16) == {}  # keywords are not among `args`: it prints nothing
    assert shown(sites, 17) == {}  # its base got one argument: its text is that one


def test_str_with_the_parts_it_adds_when_the_raise_sets_what_they_test() -> None:
    # lark's `UnexpectedToken.__str__`: `message += "Previous tokens: ..."` only when
    # `self.token_history` is set; one raise gives it a list, the other nothing.
    sites = link(
        {
            "grammar/errors.py": """
                class UnexpectedToken(Exception):
                    def __init__(self, token, expected, token_history=None):
                        self.token = token
                        self.expected = expected
                        self.token_history = token_history

                    def __str__(self):
                        message = "Unexpected token %r. Expected one of: %s" % (
                            self.token, self.expected
                        )
                        message += "."
                        if self.token_history:
                            message += "\\nPrevious tokens: %r" % self.token_history
                        return message
                """,
            "grammar/parse.py": """
                from .errors import UnexpectedToken

                def feed(token, states):
                    if token not in states:
                        raise UnexpectedToken(token, states)

                def lex(token, allowed, last):
                    if token not in allowed:
                        raise UnexpectedToken(token, allowed, token_history=[last])

                def scan(token, allowed, history):
                    raise UnexpectedToken(token, allowed, token_history=history)
                """,
        }
    )
    plain = "Unexpected token {token!r}. Expected one of: {states}."
    assert shown(sites, 6, "grammar/parse.py") == {plain: "str(exc)"}
    assert shown(sites, 10, "grammar/parse.py") == {
        "Unexpected token {token!r}. Expected one of: {allowed}.\nPrevious tokens: {[last]!r}": (
            "str(exc)"
        )
    }
    # A history that may be empty: the text with the part it may add, and without.
    assert shown(sites, 13, "grammar/parse.py") == {
        "Unexpected token {token!r}. Expected one of: {allowed}.": "str(exc)",
        "Unexpected token {token!r}. Expected one of: {allowed}.\nPrevious tokens: {history!r}": (
            "str(exc)"
        ),
    }
