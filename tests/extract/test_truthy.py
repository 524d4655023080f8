"""The locals a raise passes that are surely truthy there: what `__str__` may test."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file

SOURCE = """
    def fallback(text, pos):
        allowed = types - ignored
        if not allowed:
            allowed = {"<END-OF-FILE>"}
        raise UnexpectedCharacters(text, pos, allowed=allowed)

    def written(last):
        history = [last]
        raise UnexpectedToken(last, token_history=history)

    def tested(token, history):
        if history:
            raise UnexpectedToken(token, token_history=history)

    def past_an_exit(token, history):
        if not history:
            return None
        raise UnexpectedToken(token, token_history=history)

    def maybe_empty(token, pending):
        expected = {p.name for p in pending}
        raise UnexpectedToken(token, expected)

    def fallback_elsewhere(token, strict):
        expected = set()
        if strict:
            if not expected:
                expected = {"x"}
        raise UnexpectedToken(token, expected)

    def reassigned_after(token):
        expected = {"x"}
        if token:
            expected = set()
        raise UnexpectedToken(token, expected)
    """


def truthy() -> dict[str, tuple[str, ...]]:
    """{function: the truthy locals of its raise}."""
    facts = extract_file("grammar/lex.py", textwrap.dedent(SOURCE).encode())
    return {site.function: site.truthy for site in facts.sites}


def test_locals_surely_truthy_at_the_raise() -> None:
    assert truthy() == {
        # `if not allowed: allowed = {...}` is `allowed = ... or {...}`
        "fallback": ("allowed",),
        "written": ("history",),  # a non-empty display
        "tested": ("history",),  # under `if history:`
        "past_an_exit": ("history",),  # past `if not history: return`
        "maybe_empty": (),  # a comprehension may be empty
        "fallback_elsewhere": (),  # the fallback is in a block the raise is not in
        "reassigned_after": (),  # the last value is an empty set on one path
    }
