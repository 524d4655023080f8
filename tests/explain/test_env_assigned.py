"""An environment variable that sets a local the check tests, under its own `if`: unsetting
it is the way out when every value that fails the check is set under it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENVS = """
    import os

    environment_variables = {
        "KIT_DETERMINISTIC": lambda: bool(int(os.getenv("KIT_DETERMINISTIC", "0"))),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """

KERNELS = """
    from kit import envs


    class Exact: ...
    class Emulated: ...
    class Fast: ...
    class Slow: ...


    def pick_kernel(weight_only: bool = False):
        weight_only_kernels = (Fast, Slow)
        chosen = None
        if envs.KIT_DETERMINISTIC:
            if supported():
                chosen = Exact
            else:
                chosen = Emulated
        elif weight_only:
            chosen = Fast
        if chosen is not None:
            if weight_only and chosen not in weight_only_kernels:
                raise ValueError(f"{chosen.__name__} does not support weight-only")
        return chosen


    def pick_other(weight_only: bool = False):
        chosen = None
        if envs.KIT_DETERMINISTIC:
            chosen = Exact
        elif weight_only:
            chosen = Emulated
        if chosen is not None and chosen is not Fast:
            raise ValueError("the other kernel is not supported here")
        return chosen
    """


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"kit/__init__.py": "", "kit/envs.py": ENVS, "kit/kernels.py": KERNELS}
    yield from indexed_package(tmp_path_factory.mktemp("kit"), "kit", files)


def test_the_variable_that_sets_the_refused_values_is_the_way_out(kit: Store) -> None:
    page = page_with_message(kit, "kit", "{chosen.__name__} does not support")
    first = page.solutions[0]
    assert first.text.startswith("Unset the environment variable `KIT_DETERMINISTIC`")
    assert "`Exact`, `Emulated`" in first.text
    assert page.example_fix is not None
    assert page.example_fix.after == "unset KIT_DETERMINISTIC"


def test_a_value_set_without_the_variable_that_fails_too_leaves_it_out(kit: Store) -> None:
    # `Emulated`, set when the variable is unset, fails the check as well
    page = page_with_message(kit, "kit", "the other kernel")
    assert not any("KIT_DETERMINISTIC" in s.text for s in page.solutions)
