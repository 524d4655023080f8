"""What the protocol method of the user's object returned, refused by the call the package
hands it to: the way out is that method's return; nothing said for Python's own special
methods, or where the `try` makes another call that may have failed instead."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

DRAW = {
    "draw/__init__.py": """
        from draw.console import Console
        """,
    "draw/console.py": """
        class NotDrawable(Exception):
            pass


        class Console:
            def draw(self, item):
                parts = item.__draw_parts__(self)
                try:
                    pieces = iter(parts)
                except TypeError:
                    raise NotDrawable(f"object {parts!r} is not drawable")
                return list(pieces)

            def size(self, item):
                found = item.__len__()
                try:
                    count = len(found)
                except TypeError:
                    raise NotDrawable(f"no size in {found!r}")
                return count

            def show(self, item):
                parts = item.__draw_parts__(self)
                try:
                    pieces = iter(self.convert(parts))
                except TypeError:
                    raise NotDrawable(f"cannot show {parts!r}")
                return list(pieces)

            def convert(self, parts):
                return parts
        """,
}


@pytest.fixture(scope="module")
def draw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("draw"), "draw", DRAW)


def test_the_protocol_method_returns_what_the_call_takes(draw: Store) -> None:
    page = page_with_message(draw, "draw", "object ")
    first = page.solutions[0]
    assert first.kind == "input"
    assert first.text == (
        "Make the `__draw_parts__` method of the object you pass as `item` return an iterable "
        "(a list, or a generator: `yield` each item): `Console.draw` calls it (line 8) and "
        "hands what it returned to `iter(parts)` (the `try` at line 10), which refused it."
    )


def test_no_way_out_through_pythons_own_methods_or_another_call(draw: Store) -> None:
    for message in ("no size in ", "cannot show "):
        page = page_with_message(draw, "draw", message)
        assert not any(s.text.startswith("Make the `") for s in page.solutions)
