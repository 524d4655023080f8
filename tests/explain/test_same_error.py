"""A setting that flips a test behind which the function raises the same error again is
no way out: the user only moves to the other raise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.explain.page import Page
from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/envs.py": """
        import os

        LAB_FAST: bool = False
        LAB_PAGED: bool = False

        environment_variables = {
            "LAB_FAST": lambda: os.getenv("LAB_FAST", "0").lower() in ("1", "true"),
            "LAB_PAGED": lambda: os.getenv("LAB_PAGED", "0").lower() in ("1", "true"),
        }


        def __getattr__(name):
            return environment_variables[name]()
        """,
    "lab/scores.py": """
        from lab import envs


        def score(kind, n):
            if not envs.LAB_FAST:
                if kind == "softmax":
                    return n
                else:
                    raise ValueError(f"Unsupported kind: {kind}")
            if kind == "softmax":
                return 2 * n
            raise ValueError(f"Unsupported kind: {kind}")


        def run(batch, cases):
            if envs.LAB_PAGED and batch != 1:
                raise ValueError("paged runs support only batch=1")
            for case in cases:
                if envs.LAB_PAGED and case != 1:
                    raise ValueError("paged runs support only batch=1")
            return cases
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("same"), "lab", LAB)


def page_at(store: Store, message: str, nth: int) -> Page:
    """The page of the `nth` site (by line) whose message starts with `message`."""
    sites = sorted(
        (s for s in store.list_sites("lab") if s.site.message is not None),
        key=lambda s: s.site.line,
    )
    found = [s for s in sites if s.site.message and s.site.message.text.startswith(message)]
    return build_page(store, found[nth].id)


def test_a_setting_whose_other_side_raises_the_same_error_is_no_way_out(lab: Store) -> None:
    page = page_at(lab, "Unsupported kind", 1)
    assert not any("LAB_FAST" in s.text for s in page.solutions), page.solutions


def test_a_setting_the_other_raise_tests_again_stays(lab: Store) -> None:
    # without `LAB_PAGED` the loop's raise does not happen either
    page = page_at(lab, "paged runs support only", 0)
    assert any("LAB_PAGED" in s.text for s in page.solutions), page.what_it_means
