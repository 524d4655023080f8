"""A private method's check of `self.x`, which the constructor of a class the user makes
stored from its argument as it is: the way out is that argument, and "What it means" says
the check is of the user's declaration. Nothing is said for an attribute set anywhere else
too (another method, a normalisation, under an `if`), a class the package does not export,
a path where another guard reads the attribute, or a bare `assert`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

KEPT = {
    "kept/__init__.py": (
        "from kept.links import Bare, Link, Mirror, Slot\nfrom kept.loose import Loose\n"
        "from kept.styles import Loader, Strict\n"
    ),
    "kept/links.py": """
        class Link:
            def __init__(self, target=None, join=None, mode="plain"):
                self.target = target
                self.join = join
                self.mode = mode

            def _resolve(self):
                if self.join is not None and self.target is None:
                    raise ValueError("a join condition without a target")
                return self.join

            def _pick(self):
                if self.mode not in ("plain", "wrap"):
                    raise ValueError(f"unknown mode {self.mode!r}")
                return self.mode


        class Slot:
            def __init__(self, size=None):
                self.size = size

            def _grow(self):
                self.size = 2

            def _check(self):
                if self.size is None:
                    raise ValueError("a slot without a size")


        class Mirror:
            def __init__(self, depth=None):
                self.depth = depth

            def _check(self):
                if self.depth is None:
                    return
                if self.depth is not None and self.depth < 0:
                    raise ValueError("a negative mirror depth")


        class Bare:
            def __init__(self, count=None):
                self.count = count

            def _check(self):
                assert self.count is not None
                return self.count


        class Hidden:
            def __init__(self, width=None):
                self.width = width

            def _check(self):
                if self.width is None:
                    raise ValueError("a hidden object without a width")
        """,
    "kept/loose.py": """
        class Loose:
            def __init__(self, limit=None):
                self.limit = limit

            def _update(self, **changes):
                for key, value in changes.items():
                    setattr(self, key, value)

            def _check(self):
                if self.limit is None:
                    raise ValueError("a loose object without a limit")
        """,
    "kept/styles.py": """
        class Loader:
            def __init__(self, load=None, concrete=False):
                self.load = load
                self.concrete = concrete

            def _configure(self):
                if self.load and self.concrete:
                    raise ValueError("a load style for a concrete loader")
                if self.load == "inline":
                    return 1
                elif self.load == "selectin":
                    return 2
                elif self.load is not None:
                    raise ValueError(f"unknown load style {self.load!r}")


        class Strict:
            def __init__(self, style=None):
                self.style = style

            def _configure(self):
                if self.style == "old":
                    raise ValueError("the old style is gone")
                elif self.style == "new":
                    return 1
                elif self.style is not None:
                    raise ValueError(f"unknown style {self.style!r}")
        """,
}


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kept"), "kept", KEPT)


def test_two_kept_arguments_checked_later(kept: Store) -> None:
    page = page_with_message(kept, "kept", "a join condition without a target")
    assert page.solutions, page.what_it_means
    first = page.solutions[0].text
    assert "`target`" in first or "`join`" in first
    assert "of `Link`" in first
    assert "`self.target` is the `target` you pass `kept.Link`, kept as it is (line 4)" in (
        page.what_it_means
    )
    assert "worth reporting" not in page.what_it_means


def test_a_kept_argument_from_a_closed_set(kept: Store) -> None:
    page = page_with_message(kept, "kept", "unknown mode {self.mode!r}")
    assert page.solutions
    assert "'plain'" in page.solutions[0].text
    assert "the check is of your declaration" in page.what_it_means


def test_a_kept_argument_an_elif_chain_dispatches_on(kept: Store) -> None:
    # the chain's earlier arms take the values it accepts, and the guard before it reads
    # the attribute only as true or false, as those values are: neither is another check
    # a value the chain takes then meets
    page = page_with_message(kept, "kept", "unknown load style")
    assert page.solutions[0].text == (
        "Pass the argument `load` of `Loader` as one of `'inline'`, `'selectin'`, or leave it "
        "out (it is None by default)."
    )
    assert "the check is of your declaration" in page.what_it_means


@pytest.mark.parametrize(
    "message",
    [
        "unknown style",  # an earlier arm of the chain raises: no value it takes is sure
        "a slot without a size",  # another method sets it too
        "a negative mirror depth",  # another guard of the path reads it
        "a hidden object without a width",  # a class the package does not export
        "a loose object without a limit",  # attributes set by a computed name too
    ],
)
def test_nothing_said(kept: Store, message: str) -> None:
    page = page_with_message(kept, "kept", message)
    _nothing_said(page)


def test_nothing_said_of_a_bare_assert(kept: Store) -> None:
    # what the code assumes its callers made sure of, not a message about a declaration
    _nothing_said(page_in_function(kept, "kept", "Bare._check"))


def _nothing_said(page: Page) -> None:
    assert "the check is of your declaration" not in page.what_it_means
    assert not any("of `" in s.text and "Pass" in s.text for s in page.solutions)
