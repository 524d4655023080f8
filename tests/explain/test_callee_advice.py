"""A raise under `except` whose `try` made one call: the advice the called function logs
in its own `except` before re-raising is the way out of the same failure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/loader.py": """
        import ctypes
        import logging
        import os

        logger = logging.getLogger(__name__)


        class Library:
            def __init__(self, path=None):
                path = path or os.environ.get("LAB_LIB_PATH", "liblab.so")
                try:
                    self.lib = ctypes.CDLL(path)
                except Exception as e:
                    logger.error(
                        "Failed to load the lab library from %s. "
                        "Please set the environment variable LAB_LIB_PATH to its path.",
                        path,
                    )
                    raise e


        def quiet_load(path):
            try:
                return ctypes.CDLL(path)
            except OSError:
                logger.error("Could not load %s. Please set LAB_LIB_PATH to its path.", path)
                return None
        """,
    "lab/comm.py": """
        from lab.loader import Library, quiet_load


        class Communicator:
            def start(self, rank):
                try:
                    self.library = Library()
                except Exception as e:
                    raise RuntimeError("the communicator could not start") from e

            def quiet(self, path):
                try:
                    self.library = quiet_load(path)
                except Exception as e:
                    raise RuntimeError("the quiet communicator could not start") from e
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("callee"), "lab", LAB)


def test_the_advice_the_failed_call_logs_before_re_raising_is_a_solution(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the communicator could not start")
    texts = [s.text for s in page.solutions]
    assert any(
        t.startswith("Do what `Library` logs when it fails") and "LAB_LIB_PATH" in t for t in texts
    ), texts


def test_a_message_logged_where_the_failure_stops_is_not_read(lab: Store) -> None:
    # `quiet_load` logs and returns None: its failure never reaches the caller's `except`
    page = page_with_message(lab, "lab", "the quiet communicator could not start")
    assert not any("LAB_LIB_PATH" in s.text for s in page.solutions)
