"""Of sites raising the very same text, what the result says put the first one first: the
`tie_break` code beside the reason in `why`. A raise comes before a bare `raise` passing on
the error it caught (the traceback's last frame is the raise that made it) and before an
`assert` (skipped under `python -O`), whatever their conditions. Indexed into a real SQLite
file."""

from __future__ import annotations

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "prompt/__init__.py": "",
    "prompt/core.py": """
        class Abort(Exception):
            pass

        def confirm(text, default):
            if default is None:
                if not text:
                    raise Abort()
            return text

        def main(text):
            try:
                return confirm(text, None)
            except Abort:
                raise
        """,
    "prompt/sizes.py": """
        def resize(width, strict):
            if strict:
                if width <= 0:
                    raise AssertionError("width must be positive")
            return width

        def scale(width):
            assert width > 0, "width must be positive"
            return width * 2
        """,
    "prompt/ports.py": """
        def read_port(text):
            if not text:
                raise ValueError("a port is required")
            return int(text)

        def parse_port(text, strict):
            if strict:
                if not text:
                    raise ValueError("a port is required")
            return int(text)
        """,
}

store = indexed_fixture("tie-break", "prompt", {"1.0": PACKAGE})


def test_the_raise_that_makes_the_error_before_the_re_raise_that_passes_it_on(
    store: Store,
) -> None:
    matches = lookup_text(store, "prompt.core.Abort").matches
    first = matches[0]
    assert (first.function, first.kind, first.raised_at) == ("confirm", "raise", 2)
    assert [(o.function, o.kind) for o in first.others] == [("main", "reraise")]
    assert first.tie_break == "made_here"
    assert first.why[-1].endswith(
        "confirm is shown first: it raises the error where it is made, where others re-raise "
        "one caught"
    )
    # The re-raise is the next result, pointing at the first; no code of its own.
    assert (matches[1].function, matches[1].same_text_as, matches[1].tie_break) == (
        "main", first.id, None
    )  # fmt: skip


def test_a_raise_before_an_assert_of_the_same_text(store: Store) -> None:
    first = lookup_text(store, "AssertionError: width must be positive").matches[0]
    assert (first.function, first.kind, first.raised_at) == ("resize", "raise", 2)
    assert first.tie_break == "made_here"
    assert first.why[-1].endswith(
        "resize is shown first: a raise, where others are asserts (which `python -O` skips)"
    )


def test_the_code_is_in_the_json_answer(store: Store) -> None:
    answer = lookup_text(store, "ValueError: a port is required").answer()
    first, second = answer.matches[:2]
    assert (first.function, first.raised_at) == ("read_port", 2)
    assert first.tie_break == "fewer_conditions"
    assert (second.function, second.raised_at, second.tie_break) == ("parse_port", 2, None)
    assert second.same_text_as == first.id
