"""A setting handed back by a function the condition calls: a classmethod (or a
function) whose whole body returns an attribute first assigned from the environment
getters (`return cls._SHUFFLE` with `_SHUFFLE = envs.LAB_SHUFFLE`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/envs.py": """
        import os

        LAB_SHUFFLE: bool = False
        LAB_WORKERS: int = 1
        LAB_FAST: bool = False
        LAB_FAST_MOE: bool = False

        environment_variables = {
            "LAB_SHUFFLE": lambda: os.getenv("LAB_SHUFFLE", "0").lower() in ("1", "true"),
            "LAB_WORKERS": lambda: int(os.getenv("LAB_WORKERS", "1")),
            "LAB_FAST": lambda: os.getenv("LAB_FAST", "0").lower() in ("1", "true"),
            "LAB_FAST_MOE": lambda: os.getenv("LAB_FAST_MOE", "0").lower() in ("1", "true"),
        }


        def __getattr__(name):
            return environment_variables[name]()
        """,
    "lab/ops.py": """
        from lab import envs


        class kernel_ops:
            _SHUFFLE = envs.LAB_SHUFFLE
            _SCALE = 2 * envs.LAB_WORKERS
            _FAST = envs.LAB_FAST
            _FAST_MOE = envs.LAB_FAST_MOE

            @classmethod
            def is_fast_enabled(cls) -> bool:
                return cls._FAST

            @classmethod
            def is_fast_moe_enabled(cls) -> bool:
                return cls._FAST and cls._FAST_MOE

            @classmethod
            def is_shuffle_enabled(cls) -> bool:
                \"\"\"Whether the cache is shuffled.\"\"\"
                return cls._SHUFFLE

            @classmethod
            def scale(cls) -> int:
                return cls._SCALE

            @classmethod
            def refresh(cls):
                cls._SHUFFLE = envs.LAB_SHUFFLE


        def workers():
            return envs.LAB_WORKERS
        """,
    "lab/attention.py": """
        from lab.ops import kernel_ops, workers


        def decode(window, sinks):
            if window or sinks:
                assert not kernel_ops.is_shuffle_enabled(), (
                    "Shuffled caches do not support windows or sinks."
                )
            return window


        def experts(n):
            if kernel_ops.is_fast_moe_enabled() and n % 16:
                raise ValueError("the fast experts need a multiple of 16")
            return n


        def slow_experts(n):
            if not kernel_ops.is_fast_moe_enabled():
                raise ValueError("the experts need the fast kernels")
            return n


        def spread(n):
            if kernel_ops.scale() > n:
                raise ValueError("the scale is larger than the batch")
            if workers() > 4:
                raise ValueError("at most four workers")
            return n
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("accessors"), "lab", LAB)


def test_a_classmethod_returning_an_attribute_read_from_the_environment_names_the_variable(
    lab: Store,
) -> None:
    page = page_with_message(lab, "lab", "Shuffled caches do not support")
    assert page.solutions, page.what_it_means
    assert page.solutions[0].text.startswith("Set `LAB_SHUFFLE=0`"), page.solutions[0].text


def test_a_function_returning_a_variable_as_it_is_is_followed(lab: Store) -> None:
    page = page_with_message(lab, "lab", "at most four workers")
    assert page.solutions, page.what_it_means
    assert "`LAB_WORKERS`" in page.solutions[0].text
    assert "at most 4" in page.solutions[0].text


def test_a_value_computed_from_the_variable_is_no_accessor(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the scale is larger")
    assert not any("LAB_WORKERS" in s.text for s in page.solutions)


def test_the_narrower_setting_of_an_and_turns_the_call_off(lab: Store) -> None:
    # `LAB_FAST` is in two accessors, `LAB_FAST_MOE` in this one: turning that off is
    # the way out that leaves the other fast kernels on
    page = page_with_message(lab, "lab", "the fast experts need")
    assert page.solutions, page.what_it_means
    assert page.solutions[0].text.startswith("Set `LAB_FAST_MOE=0`"), page.solutions[0].text


def test_one_setting_of_an_and_is_not_enough_to_turn_the_call_on(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the experts need the fast kernels")
    assert not any("LAB_FAST" in s.text for s in page.solutions)
