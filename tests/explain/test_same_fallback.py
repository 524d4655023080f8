"""A guard whose other branch returns the fallback a warning announces is no way out: the
user's change hides the warning and the program does the same."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/positions.py": """
        import logging

        logger = logging.getLogger(__name__)


        def positions(tokens, features):
            if (
                not features
            ):
                return list(range(len(tokens))), 0
            sizes = [f.size for f in features if f.size is not None]
            if not sizes:
                logger.warning("features without sizes; using sequential positions")
                return list(range(len(tokens))), 0
            return sizes, len(sizes)


        def spoken(language, supported):
            if language is None or language in supported:
                return language
            logger.warning("a language spoken less well; results may be poorer")
            return language


        def scaled(values, factor):
            if factor is None:
                return values
            if factor < 0:
                logger.warning("a negative factor; using its absolute value")
                return [v * -factor for v in values]
            return [v * factor for v in values]
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("fallback"), "lab", LAB)


def test_taking_the_announced_fallback_by_another_branch_is_no_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "features without sizes")
    texts = [s.text for s in page.solutions]
    assert not any("`features`" in t for t in texts), texts
    assert page.example_fix is None
    assert (
        "The guard at line 9 is no way out: its other branch returns "
        "`(list(range(len(tokens))), 0)` too, the fallback this warning announces"
    ) in page.what_it_means, page.what_it_means


def test_a_branch_that_returns_something_else_is_not_said_to_take_it(lab: Store) -> None:
    page = page_with_message(lab, "lab", "a negative factor")
    assert "the fallback this warning announces" not in page.what_it_means


def test_the_same_name_under_a_guard_that_tests_it_is_another_value(lab: Store) -> None:
    # `return language` under `if language is None ...` returns None or a supported one
    page = page_with_message(lab, "lab", "a language spoken less well")
    assert "the fallback this warning announces" not in page.what_it_means
