""" "Worth reporting to the project" only with evidence that the function's own computation
alone decides the check: every name its conditions read comes, through the function's
assignments, from literals, builtins, constants and classes. A parameter (`self` too: an
attribute may hold a flag a constructor was given), a value assigned under a test of one,
a local a call fills (`seen.append(item)`) or a nested function sets (`nonlocal`), and a
module's slot compared with None (`_OP is None`, filled by an optional import) are no such
evidence: the page then says what errdex did not find and no more."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain.build import build_page
from errdex.explain.page import Page
from errdex.store import Store

WORK = {
    "kern/__init__.py": "",
    "kern/ops/__init__.py": "",
    "kern/ops/deep/__init__.py": "",
    "kern/ops/deep/sizes.py": """
        ROWS = 8
        THREADS = 1024

        assert THREADS == ROWS * 128
        """,
    "kern/ops/deep/loaded.py": """
        try:
            from fastlib import Callable
        except ImportError:
            Callable = object

        assert isinstance(Callable, type)
        """,
    "kern/ops/deep/work.py": """
        import os

        _OP = None


        class Worker:
            SIZES = [1, 2, 4]

            def __init__(self):
                self.world_size = os.cpu_count()

            def start(self):
                if self.world_size > 1:
                    raise NotImplementedError("no parallel start")
                return self

            def check_sizes(self):
                sizes = Worker.SIZES
                count = len(sizes)
                assert all(sizes[i] < sizes[i + 1] for i in range(count - 1))
                return sizes


        def walk_frames(offset):
            frame = "top"
            while offset:
                frame = None
                offset -= 1
            assert frame is not None
            return frame


        def label(kind):
            name = None
            if kind == "cache":
                name = "cache_info"
            assert name is not None
            return name


        def collect(items):
            seen = []
            for item in items:
                seen.append(item)
            assert len(seen) > 0
            return seen


        def packed():
            offset = 0

            def advance(width):
                nonlocal offset
                offset = offset + width

            advance(80)
            assert offset <= 64
            return offset


        def run():
            assert _OP is not None
            return _OP
        """,
}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("work"), "kern", WORK)


def test_a_check_on_a_constant_alone_is_worth_reporting(work: Store) -> None:
    page = page_in_function(work, "kern", "Worker.check_sizes")
    assert not page.solutions
    assert "(what `Worker.check_sizes` computes itself from literals and constants)" in (
        page.what_it_means
    )
    assert page.own_check is not None and page.own_check.attributes == []
    assert "worth reporting to the project" in page.what_it_means


@pytest.mark.parametrize(
    "function",
    [
        "Worker.start",  # an attribute the object holds
        "walk_frames",  # a parameter, through a loop
        "label",  # a value assigned under a test of a parameter
        "collect",  # a local a call fills from a parameter
        "packed",  # a local a nested function sets
        "run",  # a module's slot compared with None
    ],
)
def test_without_evidence_the_check_is_not_sent_to_the_project(work: Store, function: str) -> None:
    page = page_in_function(work, "kern", function)
    assert not page.solutions
    assert "worth reporting" not in page.what_it_means
    assert "they are its own state" not in page.what_it_means
    assert "errdex followed none of these conditions" in page.what_it_means


def _module_page(store: Store, module: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("kern")
        if s.site.function == "<module>" and s.module.endswith(module)
    ]
    return build_page(store, site.id)


def test_a_module_level_check_of_its_constants_is_worth_reporting(work: Store) -> None:
    page = _module_page(work, ".sizes")
    assert "(what the module computes itself from literals and constants)" in page.what_it_means
    assert "worth reporting to the project" in page.what_it_means


def test_a_module_level_check_of_what_an_import_bound_is_not(work: Store) -> None:
    page = _module_page(work, ".loaded")
    assert "worth reporting" not in page.what_it_means
