"""A check only the package's own bookkeeping can trip says so, and where to report it.

The evidence: every name its conditions read is a literal, a constant, or a private
attribute only the site's class sets, from such values, in a class the package does not
hand its users; no parameter, setting or caught value on the way. Then "What it means"
says that the check guards the package's own bookkeeping, that no setting or argument of
the user's is known to reach it, and that hitting it is worth reporting to the project's
tracker (from its metadata) with the traceback and versions; the JSON page carries it in
`own_check`. An attribute a parameter sets, one another object's code in the file may set,
one a base class or a subclass of the package's in another file may set, or the attribute
of a class users call, gets no such sentence.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain.page import Page
from errdex.store import Store

WORK = {
    "pyproject.toml": """
        [project]
        name = "kern"
        version = "1.0"

        [project.urls]
        "Issue Tracker" = "https://example.org/kern/issues"
        """,
    "kern/__init__.py": "from kern.api import Session\n",
    "kern/api.py": """
        class Session:
            def __init__(self):
                self._open = True

            def close(self):
                self._open = False

            def send(self):
                assert self._open
                return 1
        """,
    "kern/base.py": """
        class Base:
            def __init__(self, worker):
                self._worker = worker
        """,
    "kern/ops/__init__.py": "",
    "kern/ops/more.py": """
        from kern.ops.deep.pool import Slots


        class MoreSlots(Slots):
            def __init__(self, slots):
                self._slots = slots
        """,
    "kern/ops/deep/__init__.py": "",
    "kern/ops/deep/pool.py": """
        from kern.base import Base

        LIMIT = 100


        class Pool:
            def __init__(self, size):
                self.size = size
                self._free = None
                self._count = 0
                self._limit = (size or 1) * 2
                self._kinds = []

            def _prepare(self):
                self._free = []
                self._kinds.append("plain")

            def take(self):
                assert self._free is not None
                return self._free

            def kinds(self):
                assert len(self._kinds) < LIMIT
                return len(self._kinds)

            def grow(self, extra):
                self._count += extra

            def counted(self):
                assert self._count < LIMIT
                return self._count

            def limited(self):
                assert self._limit > 0
                return self._limit


        class Shared:
            def __init__(self):
                self._slot = None

            def read(self):
                assert self._slot is not None
                return self._slot


        def fill(shared, value):
            shared._slot = value


        class Worker(Base):
            def __init__(self):
                self._worker = None

            def run(self):
                assert self._worker is not None
                return self._worker


        class Slots:
            def __init__(self):
                self._slots = None

            def first(self):
                assert self._slots is not None
                return self._slots


        class Caught:
            def __init__(self):
                self._state = None

            def _load(self):
                try:
                    self._state = {}
                except OSError:
                    self._state = None

            def state(self):
                assert self._state is not None
                return self._state
        """,
}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("work"), "kern", WORK)


def _says_it(page: Page) -> bool:
    return "own bookkeeping" in page.what_it_means


@pytest.mark.parametrize(
    ("function", "attribute"),
    [
        ("Pool.take", "_free"),  # set to None or a new list: only whether it is set matters
        ("Pool.kinds", "_kinds"),  # its contents changed with a literal alone, never handed out
    ],
)
def test_a_private_attribute_only_its_class_sets_is_its_bookkeeping(
    work: Store, function: str, attribute: str
) -> None:
    page = page_in_function(work, "kern", function)
    assert not page.solutions
    assert _says_it(page)
    assert f"`self.{attribute}`, which only `Pool` sets" in page.what_it_means
    assert "no setting or argument of yours is known to reach it" in page.what_it_means
    assert "worth reporting to the project at https://example.org/kern/issues" in (
        page.what_it_means
    )
    assert page.own_check is not None
    assert page.own_check.attributes == [attribute]
    assert page.own_check.report_to == "https://example.org/kern/issues"
    assert page.own_check.text in page.what_it_means
    assert msgspec.json.decode(msgspec.json.encode(page))["own_check"]["attributes"] == [attribute]


@pytest.mark.parametrize(
    "function",
    [
        "Pool.counted",  # a method adds what its caller passed
        "Pool.limited",  # computed from the constructor's argument
        "Shared.read",  # a function of the file sets another object's `_slot`
        "Worker.run",  # a base of the package's in another file sets it from an argument
        "Slots.first",  # a subclass in another file sets it from an argument
    ],
)
def test_an_attribute_others_may_set_is_no_evidence(work: Store, function: str) -> None:
    page = page_in_function(work, "kern", function)
    assert not _says_it(page)
    assert page.own_check is None
    assert "worth reporting" not in page.what_it_means


def test_a_value_set_where_a_try_failed_is_no_evidence(work: Store) -> None:
    page = page_in_function(work, "kern", "Caught.state")
    assert not _says_it(page)
    assert page.own_check is None


def test_the_attribute_of_a_class_users_call_is_theirs_to_order(work: Store) -> None:
    # `Session.close()` then `send()`: the user's call order, not the package's bookkeeping
    page = page_in_function(work, "kern", "Session.send")
    assert not _says_it(page)
    assert page.own_check is None
