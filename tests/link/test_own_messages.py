"""A message a method takes from its own object: a validator's, kept by `__init__`."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

VALIDATORS = """
    class ValidationError(ValueError):
        pass

    class Length:
        default_message = "Field must be at most %(max)d characters long."

        def __init__(self, max=-1, message=None):
            self.max = max
            self.message = message

        def __call__(self, form, field):
            if len(field.data) > self.max:
                message = self.message or self.default_message
                raise ValidationError(message % dict(max=self.max))

    class Required:
        def __init__(self, message=None):
            if message is None:
                message = "This field is required."
            self.message = message

        def __call__(self, form, field):
            if not field.data:
                raise ValidationError(self.message)

    class AnyOf:
        def __init__(self, values, message="Invalid value, must be one of: %(values)s."):
            self.values = values
            self.message = message

        def __call__(self, form, field):
            if field.data not in self.values:
                raise ValidationError(self.message % dict(values=self.values))
    """


def link(text: str) -> list[IndexedSite]:
    facts = [extract_file("forms/validators.py", textwrap.dedent(text).encode())]
    return link_version("demo", facts)


def shown(sites: list[IndexedSite], line: int) -> set[str]:
    """The texts shown for the site at `line` (each of its messages, when it has several)."""
    return {form.text.text for s in sites if s.site.line == line for form in s.shown}


def test_the_message_an_object_keeps_is_what_it_raises_when_given_none() -> None:
    sites = link(VALIDATORS)
    # A class attribute for a message not given, formatted with the object's values: a
    # value stays the caller's (`max` defaults to -1, which is no one's limit).
    assert shown(sites, 15) == {"Field must be at most {self.max:d} characters long."}
    # `if message is None: message = "..."` in `__init__`.
    assert shown(sites, 25) == {"This field is required."}
    # The parameter's default, formatted in `__call__`.
    assert shown(sites, 34) == {"Invalid value, must be one of: {self.values}."}


def test_a_subclass_passing_its_message_to_its_bases_method() -> None:
    # wtforms' `MacAddress.__call__` chooses its message, then `super().__call__(form,
    # field, message)`: the base's raise shows it, and the call is a site of its own.
    sites = link(
        """
        class ValidationError(ValueError):
            def __init__(self, message="", *args, **kwargs):
                ValueError.__init__(self, message, *args, **kwargs)

        class Regexp:
            def __call__(self, form, field, message=None):
                if not self.regex.match(field.data):
                    if message is None:
                        message = "Invalid input."
                    raise ValidationError(message)

        class MacAddress(Regexp):
            def __call__(self, form, field):
                message = self.message
                if message is None:
                    message = "Invalid Mac address."
                super().__call__(form, field, message)
        """
    )
    # (and `*args` passed on to the base is empty: no tuple of arguments is shown)
    assert shown(sites, 11) == {"Invalid Mac address."}
    [call] = [s for s in sites if s.site.line == 18]
    assert call.site.message is not None
    assert call.site.message.text == "Invalid Mac address."
    # (its own choice, and the base's test; the base's `if message is None` is decided)
    assert [c.statement for c in call.site.conditions] == [
        "message is None",
        "not self.regex.match(field.data)",
    ]


def test_an_object_raised_as_the_message_shows_pythons_own_repr() -> None:
    # lark's `raise EOFError(self)` in a lexer: `EOFError: <lark.lexer.BasicLexer object at
    # 0x7f...>`, unless a class of its chain writes its own `repr()`.
    sites = link(
        """
        from abc import ABC

        class Lexer(ABC):
            pass

        class BasicLexer(Lexer):
            def next_token(self):
                raise EOFError(self)

        class Named(Lexer):
            def __repr__(self):
                return "Named()"

            def next_token(self):
                raise EOFError(self)
        """
    )
    assert shown(sites, 9) == {"<forms.validators.BasicLexer object at {hex(id(self))}>"}
    assert shown(sites, 16) == set()


def test_a_parameter_of_the_enclosing_function_shows_its_default() -> None:
    # starlette's `requires(scopes, status_code=403)`: its wrapper raises
    # `HTTPException(status_code=status_code)`, `403: Forbidden` when left out.
    sites = link(
        """
        import http

        class HTTPException(Exception):
            def __init__(self, status_code, detail=None):
                if detail is None:
                    detail = http.HTTPStatus(status_code).phrase
                self.status_code = status_code
                self.detail = detail

            def __str__(self):
                return f"{self.status_code}: {self.detail}"

        def requires(scopes, status_code=403):
            def decorator(func):
                def wrapper(request):
                    if not set(scopes) <= request.scopes:
                        raise HTTPException(status_code=status_code)
                    return func(request)
                return wrapper
            return decorator
        """
    )
    assert shown(sites, 18) == {"{status_code}: {self.detail}", "403: Forbidden"}
    [site] = [s for s in sites if s.site.line == 18]
    assert [(b.name, b.value, b.origin) for b in site.site.bindings] == [
        ("status_code", "403", "default")
    ]
