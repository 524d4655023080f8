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


def test_a_call_next_reads_with_a_default_or_annotated_is_recorded() -> None:
    source = textwrap.dedent(
        """
        class Reader:
            def first(self, data):
                found = next(self._items(data), None)
                items: list = list(self._items(data))
                return found, items

            def _items(self, data):
                yield from data
        """
    )
    facts = extract_file("pkg/reader.py", source.encode())
    calls = {(c.function, c.callee, c.line) for c in facts.call_sites}
    # before: neither (`next` with a default; a collected call in an annotated assignment)
    assert ("Reader.first", "_items", 4) in calls
    assert ("Reader.first", "_items", 5) in calls
