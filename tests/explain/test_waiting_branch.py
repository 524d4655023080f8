"""A guard whose other branch waits for the condition the raise reports is no way out: a
non-blocking call's raise is not avoided by making the call block."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/slots.py": """
        import threading
        import time


        class Empty(Exception):
            pass


        class Slots:
            def __init__(self):
                self.items = []
                self.ready = threading.Condition()

            def take(self, block=True, timeout=None):
                with self.ready:
                    if not block:
                        if not self.items:
                            raise Empty("no item is ready")
                    elif timeout is None:
                        while not self.items:
                            self.ready.wait()
                    else:
                        end = time.monotonic() + timeout
                        while not self.items:
                            if time.monotonic() >= end:
                                raise Empty("no item came in time")
                            self.ready.wait(end - time.monotonic())
                    return self.items.pop()

            def load(self):
                self.items.append(object())

            def pull(self, refill=False):
                if not refill:
                    if not self.items:
                        raise Empty("nothing to pull")
                else:
                    while not self.items:
                        self.load()
                return self.items.pop()
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("waiting"), "lab", LAB)


def test_blocking_a_non_blocking_call_is_no_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "no item is ready")
    texts = [s.text for s in page.solutions]
    assert not any("`block`" in t for t in texts), texts
    assert page.example_fix is None
    assert "its other branch waits in `while not self.items`" in page.what_it_means, (
        page.what_it_means
    )


def test_leaving_the_timeout_out_is_no_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "no item came in time")
    texts = [s.text for s in page.solutions]
    assert not any("`timeout`" in t and "None" in t for t in texts), texts
    assert "hangs if nothing does" in page.what_it_means, page.what_it_means


def test_a_loop_that_clears_the_condition_itself_keeps_the_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "nothing to pull")
    assert any("`refill`" in s.text for s in page.solutions), [s.text for s in page.solutions]
    assert "waits in" not in page.what_it_means
