"""A function that imports what it calls, in a body the skeleton blanked: its calls of the
imported names are calls into the codebase (`from ._impl import Bar` ... `Bar(...)`), as
they are when the walker parses the body."""

from __future__ import annotations

import textwrap

import pytest

from errdex import extract
from errdex.extract import extract_file
from errdex.extract.skeleton import build_skeleton
from samples import QUIET_FUNCTIONS

SOURCE = QUIET_FUNCTIONS + textwrap.dedent(
    '''
    import typing as t

    if t.TYPE_CHECKING:
        from ._impl import Bar


    def progress(iterable=None, length=None):
        """Make a bar (not as the old one did:
        from .ghost import Phantom
        )."""
        from ._impl import Bar
        from .colors import (
            resolve,  # the terminal's
            Palette as Colors,
        )

        return Bar(iterable=iterable, length=length, color=resolve(Colors()))


    def pager(text):
        from ._impl import pager as _pager
        from . import _impl
        return _pager(text) or _impl.echo(text)


    def chained(items):
        yield from items
        return


    def imports_twice(flag):
        if flag:
            from .one import make
        else:
            from .two import make
        return make()
    '''
)


def _calls(source: str, function: str) -> list[str]:
    facts = extract_file("pkg/cli.py", source.encode())
    return [c.callee for c in facts.call_sites if c.function == function]


def test_the_bodies_are_blanked_in_this_sample() -> None:
    reduced = build_skeleton(SOURCE)
    assert reduced is not None and "return Bar(" not in reduced.text


def test_a_name_a_blanked_body_imports_is_called_into_the_codebase() -> None:
    assert _calls(SOURCE, "progress") == ["Bar", "resolve", "Colors"]
    facts = extract_file("pkg/cli.py", SOURCE.encode())
    assert facts.local_imports["Bar"] == "pkg._impl.Bar"
    assert facts.local_imports["Colors"] == "pkg.colors.Palette"  # the name as bound
    assert facts.local_imports["_pager"] == "pkg._impl.pager"


def test_the_same_calls_are_found_with_or_without_the_skeleton(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blanked = extract_file("pkg/cli.py", SOURCE.encode())
    monkeypatch.setattr(extract, "build_skeleton", lambda *_, **__: None)
    whole = extract_file("pkg/cli.py", SOURCE.encode())
    assert blanked.local_imports == whole.local_imports
    ours = {"Bar", "resolve", "Colors", "_pager", "echo"}
    assert {c.callee for c in whole.call_sites} & ours <= {c.callee for c in blanked.call_sites}


def test_a_name_imported_two_ways_is_resolved_neither_way() -> None:
    facts = extract_file("pkg/cli.py", SOURCE.encode())
    assert "make" not in facts.local_imports


def test_words_that_are_no_import_statement_bind_nothing() -> None:
    # the docstring's "from .ghost import Phantom" and `yield from items`
    facts = extract_file("pkg/cli.py", SOURCE.encode())
    assert "Phantom" not in facts.local_imports
    assert "items" not in facts.local_imports
