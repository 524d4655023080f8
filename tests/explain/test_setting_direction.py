"""A setting the condition uses without comparing it with a literal: the page says which
way to move it where that is certain (the time a failed wait was given; one side of a
comparison that no other side of it follows), and only names it where it is not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENVS = """
    import os

    environment_variables = {
        "STOP_TIMEOUT": lambda: int(os.getenv("STOP_TIMEOUT", "5")),
        "MAX_BATCH": lambda: int(os.getenv("MAX_BATCH", "8")),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """

WORKERS = """
    import logging

    from pool import envs

    logger = logging.getLogger(__name__)


    def wait_for(procs, timeout=None):
        return not procs


    def stop(procs):
        if not wait_for(procs, timeout=envs.STOP_TIMEOUT):
            logger.warning("workers still running after the timeout")


    def stop_now(procs):
        if not wait_for(procs, envs.STOP_TIMEOUT):
            logger.warning("workers still running after the short wait")


    class Batcher:
        def check(self):
            limit = envs.MAX_BATCH
            if limit < self.planned_batch:
                logger.warning("the batch limit is below the planned batch")

        def check_held(self):
            limit = envs.MAX_BATCH
            assert limit >= self.held_batch, "the held batch is past the limit"

        def check_pair(self):
            low = envs.MAX_BATCH
            high = envs.MAX_BATCH
            if low < high:
                logger.warning("the two limits differ")
    """


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"pool/__init__.py": "", "pool/envs.py": ENVS, "pool/workers.py": WORKERS}
    yield from indexed_package(tmp_path_factory.mktemp("pool"), "pool", files)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "pool", message).solutions]


def test_the_time_a_failed_wait_was_given_is_raised(pool: Store) -> None:
    (first, *_) = texts(pool, "workers still running after the timeout")
    assert first.startswith(
        "Raise the environment variable `STOP_TIMEOUT`, the `timeout` given to `wait_for`"
    )


def test_a_positional_argument_of_unknown_meaning_is_only_named(pool: Store) -> None:
    (first, *_) = texts(pool, "workers still running after the short wait")
    assert first.startswith("Change the environment variable `STOP_TIMEOUT`")


def test_one_side_of_a_comparison_is_moved_past_the_other(pool: Store) -> None:
    (first, *_) = texts(pool, "the batch limit is below the planned batch")
    assert first.startswith("Set `MAX_BATCH` to a value at least `self.planned_batch`")


def test_no_direction_for_an_assert_on_the_programs_own_state(pool: Store) -> None:
    assert not any("a value at least" in t for t in texts(pool, "the held batch is past"))


def test_no_direction_when_the_setting_is_behind_both_sides(pool: Store) -> None:
    (first, *_) = texts(pool, "the two limits differ")
    assert first.startswith("Change the environment variable `MAX_BATCH`")
