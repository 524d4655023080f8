"""An argument tested for an attribute, whose annotation names kinds without it: the way out
is one of those kinds, passed where the user passes it; nothing said where the other kinds
raise too, where no annotation names them, or where the function tests what it made itself."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FEED = {
    "feed/__init__.py": """
        from feed.streams import Runner, make_stream
        """,
    "feed/streams.py": """
        import io
        import typing as t


        def _binary(stream):
            return getattr(stream, "buffer", None)


        def make_stream(data: t.Optional[t.Union[str, bytes, t.IO[t.Any]]], charset: str):
            if hasattr(data, "read"):
                found = _binary(data)
                if found is not None:
                    return found
                raise TypeError("Could not find a binary reader.")
            if data is None:
                data = b""
            elif isinstance(data, str):
                data = data.encode(charset)
            return io.BytesIO(data)


        class Runner:
            def isolation(self, data=None):
                return make_stream(data, "utf-8")


        def strict_stream(data: t.Union[str, t.IO[t.Any]]):
            if hasattr(data, "read"):
                raise TypeError("no streams here")
            if isinstance(data, str):
                raise ValueError("no text either")
            return data


        def untyped_stream(data):
            if hasattr(data, "read"):
                raise TypeError("an untyped stream")
            return data


        def remade_stream(data: t.Union[str, t.IO[t.Any]]):
            data = io.StringIO(data) if isinstance(data, str) else data
            if hasattr(data, "read"):
                raise TypeError("a stream it made itself")
            return data
        """,
}


@pytest.fixture(scope="module")
def feed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("feed"), "feed", FEED)


def test_a_kind_the_annotation_names_without_the_attribute(feed: Store) -> None:
    page = page_with_message(feed, "feed", "Could not find a binary reader.")
    first = page.solutions[0]
    assert first.kind == "input"
    assert first.text == (
        "Pass `data` to `feed.Runner.isolation` (it reaches `make_stream` as `data`) as a "
        "`str` or `bytes`, which has no `read`: `make_stream` sends only an object with "
        "`read` into the branch at line 11 that raises (“Could not find a binary reader.”), "
        "and handles the other kinds its annotation names after it."
    )


def test_nothing_said_where_the_other_kinds_raise_or_none_is_named(feed: Store) -> None:
    # the test reads what the function made of the argument: a `str` is read too
    for message in ("no streams here", "an untyped stream", "a stream it made itself"):
        page = page_with_message(feed, "feed", message)
        assert not any(" which has no `read`" in s.text for s in page.solutions)
