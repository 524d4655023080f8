"""A message a method takes from its own object: a validator's, kept by `__init__`."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import IndexedSite
from errdex.link import link_version

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
    [site] = [s for s in sites if s.site.line == line]
    return {form.text.text for form in site.shown}


def test_the_message_an_object_keeps_is_what_it_raises_when_given_none() -> None:
    sites = link(VALIDATORS)
    # A class attribute for a message not given, formatted with the object's values: a
    # value stays the caller's (`max` defaults to -1, which is no one's limit).
    assert shown(sites, 15) == {"Field must be at most {self.max:d} characters long."}
    # `if message is None: message = "..."` in `__init__`.
    assert shown(sites, 25) == {"This field is required."}
    # The parameter's default, formatted in `__call__`.
    assert shown(sites, 34) == {"Invalid value, must be one of: {self.values}."}
