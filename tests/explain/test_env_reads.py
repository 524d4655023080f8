"""An environment variable read in the condition itself: bound by a walrus, then converted
to a number and compared with a bound, or only tested for being set (`"X" in os.environ`).
The page unsets it, sets it, or sets it past the bound."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

THREADS = """
    import logging
    import os

    logger = logging.getLogger(__name__)


    def set_threads():
        if (threads := os.environ.get("OMP_NUM_THREADS")) is not None:
            if int(threads) > 1:
                logger.warning("OMP_NUM_THREADS=%s is set; leaving threads alone", threads)


    def check_workers():
        workers = os.getenv("POOL_WORKERS", "4")
        if float(workers) >= 2.5:
            logger.warning("many workers in the pool")


    def release_cache():
        if "UCX_RCACHE_MAX_UNRELEASED" in os.environ:
            return
        logger.warning("the cache limit could not be set")


    def check_host():
        if "HOST_IP" in os.environ and "POOL_HOST_IP" not in os.environ:
            logger.warning("HOST_IP is deprecated and ignored. Please use POOL_HOST_IP instead.")


    def check_any():
        if int(os.environ.get("POOL_SIZE", "0")) > 0:
            logger.warning("a pool size is set")
    """


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"pool/__init__.py": "", "pool/threads.py": THREADS}
    yield from indexed_package(tmp_path_factory.mktemp("pool"), "pool", files)


def test_a_walrus_bound_read_is_unset_or_set_past_the_bound(pool: Store) -> None:
    page = page_with_message(pool, "pool", "OMP_NUM_THREADS={threads} is set")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Unset `OMP_NUM_THREADS`")
    assert texts[1].startswith("Set `OMP_NUM_THREADS` to a value at most 1 (`OMP_NUM_THREADS=1`)")
    fix = page.solutions[1].fix
    assert fix is not None
    assert fix.before == "export OMP_NUM_THREADS=2"
    assert fix.after == "export OMP_NUM_THREADS=1"


def test_a_float_bound_is_avoided_below_it(pool: Store) -> None:
    page = page_with_message(pool, "pool", "many workers in the pool")
    (first, *_) = page.solutions
    assert first.text.startswith("Set `POOL_WORKERS` to a value below 2.5 (`POOL_WORKERS=2.0`)")


def test_none_of_a_thing_is_no_bound_to_set(pool: Store) -> None:
    page = page_with_message(pool, "pool", "a pool size is set")
    assert not any("POOL_SIZE` to a value" in s.text for s in page.solutions)


def test_an_early_exit_on_a_set_variable_is_taken_by_setting_it(pool: Store) -> None:
    page = page_with_message(pool, "pool", "the cache limit could not be set")
    (first, *_) = page.solutions
    assert first.text.startswith("Set `UCX_RCACHE_MAX_UNRELEASED` (this check only tests")
    assert first.fix is None  # no value to write: the code after the check reads it


def test_a_set_variable_the_check_needs_is_unset(pool: Store) -> None:
    page = page_with_message(pool, "pool", "HOST_IP is deprecated")
    texts = [s.text for s in page.solutions]
    # the message's advice names `POOL_HOST_IP`, not the `HOST_IP` the solution unsets
    assert texts[0].startswith("Do what the message says: “Please use POOL_HOST_IP instead")
    unset = page.solutions[1]
    assert unset.text.startswith("Unset `HOST_IP`")
    assert unset.fix is not None and unset.fix.after == "unset HOST_IP"
