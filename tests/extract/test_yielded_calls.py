"""Calls a generator yields and calls a builtin collects (`list(self._fields(data))`): each
is the statement's call of the codebase, recorded for the callee's callers."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file

SOURCE = textwrap.dedent(
    """
    class Field:
        def __init__(self, name, value):
            if not isinstance(value, str):
                raise TypeError("value must be a string")


    class Stream:
        def __init__(self, data):
            self.fields = list(self._fields(data))
            self.sorted = sorted(self._fields(data), key=len)

        def _fields(self, data):
            for name, value in data.items():
                yield Field(name=name, value=value)

        async def _more(self, data):
            yield await self._fetch(data)
            yield from self._fields(data)

        async def _fetch(self, data):
            return data
    """
)


def test_yielded_and_collected_calls_are_recorded() -> None:
    facts = extract_file("pkg/stream.py", SOURCE.encode())
    calls = {(c.function, c.callee, c.line) for c in facts.call_sites}
    # before: none of these (a yield's call, the call inside `list(...)`)
    assert ("Stream._fields", "Field", 15) in calls
    assert ("Stream.__init__", "_fields", 10) in calls
    assert ("Stream.__init__", "_fields", 11) in calls
    assert ("Stream._more", "_fetch", 18) in calls
    assert ("Stream._more", "_fields", 19) in calls
