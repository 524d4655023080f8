"""A part of the value given that closes what no earlier part of it opened: the way out is
the value passed, said through the function's loop over it and the list that loop fills;
nothing said where the list holds more than the value's own parts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

TAGS = {
    "tags/__init__.py": """
        from tags.markup import render
        """,
    "tags/markup.py": """
        import re

        _TAG = re.compile(r"<(/?)(\\w*)>")


        class TagError(Exception):
            pass


        def _parts(text):
            for match in _TAG.finditer(text):
                yield match.start(), match.group(1), match.group(2)


        def render(text):
            opened = []
            pop = opened.pop

            def pop_named(name):
                for index, (_, tag) in enumerate(reversed(opened), 1):
                    if tag == name:
                        return pop(-index)
                raise KeyError(name)

            for position, closing, name in _parts(text):
                if closing:
                    if name:
                        try:
                            pop_named(name)
                        except KeyError:
                            raise TagError(f"closing tag {name!r} at {position} matches no tag")
                    else:
                        try:
                            pop()
                        except IndexError:
                            raise TagError(f"closing tag at {position} has nothing to close")
                else:
                    opened.append((position, name))
            return opened


        def render_with(text, start):
            opened = []
            opened.append(start)
            for position, closing, name in _parts(text):
                if closing:
                    try:
                        opened.pop()
                    except IndexError:
                        raise TagError(f"nothing left to close at {position}")
                else:
                    opened.append(name)
            return opened


        def render_shared(text, opened):
            for position, closing, name in _parts(text):
                if closing:
                    try:
                        opened.pop()
                    except IndexError:
                        raise TagError(f"no open tag for {position}")
                else:
                    opened.append(name)
            return opened
        """,
}


@pytest.fixture(scope="module")
def tags(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tags"), "tags", TAGS)


def test_a_close_with_nothing_open_is_the_value_given(tags: Store) -> None:
    page = page_with_message(tags, "tags", "closing tag at ")
    first = page.solutions[0]
    assert first.kind == "input"
    assert first.text == (
        "Change the `text` you pass to `render`: the loop at line 26 reads it part by part "
        "(`_parts(text)`) and puts an item on `opened` for each part that opens one (line "
        "39), and `pop()` (the `try` at line 35) takes one off for a part that closes one. "
        "It found none there, so the part the message shows closes what no earlier part of "
        "`text` opened (or what an earlier part closed already): open it before that part, "
        "or leave that part out."
    )


def test_a_close_no_open_part_names_goes_through_the_function_that_looks_it_up(
    tags: Store,
) -> None:
    page = page_with_message(tags, "tags", "closing tag {")
    assert page.solutions[0].text.startswith(
        "Change the `text` you pass to `render`: the loop at line 26 reads it part by part "
    )
    assert "and `pop_named(name)` (the `try` at line 30) takes one off" in page.solutions[0].text


def test_no_way_out_through_the_value_where_the_list_holds_more_than_its_parts(
    tags: Store,
) -> None:
    # an item the function put there itself, and a list the caller handed in
    for message in ("nothing left to close at ", "no open tag for "):
        page = page_with_message(tags, "tags", message)
        assert not any(s.text.startswith("Change the `text`") for s in page.solutions)
