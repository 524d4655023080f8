"""A raise that writes its one value out (`raise Exit(130)`) matched by its class: a paste
showing another value (`Exit: 0`) comes from a raise given a value, not from that one.
Indexed into a real SQLite file."""

from __future__ import annotations

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "runner/__init__.py": "",
    "runner/errors.py": """
        class Exit(RuntimeError):
            def __init__(self, code=0):
                self.exit_code = code
        """,
    "runner/main.py": """
        from .errors import Exit

        def interrupted():
            raise Exit(130)

        def not_supported(shell):
            print(f"Shell {shell} not supported.")
            raise Exit(1)

        def leave(code):
            raise Exit(code)
        """,
}

store = indexed_fixture("written-value", "runner", {"1.0": PACKAGE})


def test_a_value_written_at_the_raise_that_the_paste_does_not_show_comes_after(
    store: Store,
) -> None:
    first = lookup_text(store, "Exit: 0").matches[0]
    assert (first.function, first.message) == ("leave", "{code}")


def test_the_value_the_paste_shows_keeps_its_raise(store: Store) -> None:
    matches = lookup_text(store, "Exit: 130").matches
    assert "interrupted" in [m.function for m in matches[:2]]
