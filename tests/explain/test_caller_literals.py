"""The one literal the package passes an internal function's parameter fills its placeholder
in the page's solutions; two values, a default, a computed value or an entry point the user
calls leave it for the user's paste."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "kit/__init__.py": "from kit.top import start\n",
    "kit/versions.py": """
        from importlib.metadata import version


        def check_lib(min_version):
            installed = version("lib")
            if installed < min_version:
                raise RuntimeError(f"lib >= {min_version} is required, but {installed} is here")


        def check_tool(min_version):
            installed = version("tool")
            if installed < min_version:
                raise RuntimeError(f"tool >= {min_version} is required")


        def check_other(min_version="2.0"):
            installed = version("other")
            if installed < min_version:
                raise RuntimeError(f"other >= {min_version} is required")


        def check_more(min_version):
            installed = version("more")
            if installed < min_version:
                raise RuntimeError(f"more >= {min_version} is required")
        """,
    "kit/worker.py": """
        from kit.versions import check_lib, check_more, check_other, check_tool


        class Worker:
            def __init__(self, wanted):
                check_lib("1.5.0")
                check_tool("3.1")
                check_other("2.5")
                check_more(wanted.strip())


        def restart():
            check_lib("1.5.0")
            check_tool("3.2")
        """,
    "kit/top.py": """
        from importlib.metadata import version


        def start(min_version):
            if version("base") < min_version:
                raise RuntimeError(f"base >= {min_version} is required")


        def _boot():
            start("9.0")
        """,
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kit"), "kit", FILES)


def first_solution(store: Store, function: str) -> str:
    # the page of the raise itself (each call with a literal is a helper site of its own,
    # whose message the index already holds filled)
    return page_in_function(store, "kit", function).solutions[0].text


def test_the_one_literal_every_caller_passes_is_put_in(kit: Store) -> None:
    text = first_solution(kit, "check_lib")
    assert text.startswith("Upgrade lib to 1.5.0 or newer")
    assert "INSTALLED" in text  # a value only the user's message holds: named as theirs


def test_callers_that_disagree_leave_it(kit: Store) -> None:
    assert first_solution(kit, "check_tool").startswith("Upgrade tool to `MIN_VERSION` or newer")


def test_a_parameter_with_a_default_leaves_it(kit: Store) -> None:
    assert first_solution(kit, "check_other").startswith("Upgrade other to `MIN_VERSION` or newer")


def test_a_computed_value_leaves_it(kit: Store) -> None:
    assert first_solution(kit, "check_more").startswith("Upgrade more to `MIN_VERSION` or newer")


def test_a_function_the_user_calls_leaves_it(kit: Store) -> None:
    # `kit.start` is exported by a shorter path: the user calls it with their own value
    assert first_solution(kit, "start").startswith("Upgrade base to `MIN_VERSION` or newer")
