"""A guard whose other branch passes the input to a call that fails the same way is no way
out: the page offers no solution through it and says which call fails."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/names.py": """
        import os
        import sys

        REMOTE = {}
        LOCAL = {}


        def evaluate(expression, module_name):
            try:
                space = sys.modules[module_name].__dict__
            except KeyError as ke:
                raise NameError(f"no module {module_name}") from ke
            try:
                return eval(expression, space)
            except Exception as err:
                raise NameError(f"could not evaluate {expression!r}") from err


        def lookup(name, module_name):
            if "." in name:
                return evaluate(name, module_name)
            space = sys.modules[module_name].__dict__
            try:
                return space[name]
            except KeyError as ke:
                raise NameError(f"could not locate {name} in {module_name}") from ke


        def remote_get(key):
            raise LookupError(f"no remote store holds {key}")


        def get(key):
            if os.environ.get("LAB_REMOTE"):
                return remote_get(key)
            if not key:
                raise LookupError(f"an empty key is never stored: {key!r}")
            return LOCAL[key]


        def dotted(name):
            if not name.strip("."):
                raise NameError("a name of dots only")
            return name.split(".")


        def short(name):
            if "." in name:
                return dotted(name)
            try:
                return LOCAL[name]
            except KeyError:
                raise NameError(f"no short name {name}")


        def loose(key):
            try:
                return REMOTE["default"]
            except KeyError:
                raise LookupError("no default")


        def fetch(key, strict):
            if not strict:
                return loose(key)
            try:
                return LOCAL[key]
            except KeyError:
                raise LookupError(f"no key {key}")


        class Full(Exception):
            pass


        class Box:
            def __init__(self, slots):
                self._slots = slots

            def put_nowait(self, item):
                try:
                    self._slots.append_nowait(item)
                except OverflowError as err:
                    raise Full() from err

            def put(self, item, block=True, timeout=None):
                if not block:
                    return self.put_nowait(item)
                try:
                    self._slots.append(item, timeout)
                except (OverflowError, TimeoutError) as err:
                    raise Full("the box stayed full") from err
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("failing"), "lab", LAB)


def test_a_guard_that_only_picks_which_lookup_fails_is_no_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "could not locate")
    texts = [s.text for s in page.solutions]
    assert not any("'.'" in t for t in texts), texts
    said = "its other branch passes `name` to `evaluate`, which raises `NameError` as well"
    assert said in page.what_it_means, page.what_it_means
    assert "lab/names.py:" in page.what_it_means


def test_a_setting_that_picks_a_call_always_raising_the_same_error_is_no_way_out(
    lab: Store,
) -> None:
    page = page_with_message(lab, "lab", "an empty key")
    texts = [s.text for s in page.solutions]
    assert not any("LAB_REMOTE" in t for t in texts), texts
    assert "passes `key` to `remote_get`, which always raises `LookupError`" in (
        page.what_it_means
    ), page.what_it_means


def test_a_callee_failing_only_under_a_test_of_its_own_keeps_the_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "no short name")
    assert any("'.'" in s.text for s in page.solutions), [s.text for s in page.solutions]
    assert "its other branch passes" not in page.what_it_means


def test_a_callee_whose_try_does_not_read_the_value_keeps_the_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "no key")
    assert any("strict" in s.text for s in page.solutions), [s.text for s in page.solutions]
    assert "its other branch passes" not in page.what_it_means


def test_a_method_failing_on_the_same_attribute_of_self_is_no_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the box stayed full")
    texts = [s.text for s in page.solutions]
    assert not any("`block`" in t for t in texts), texts
    assert "its other branch passes `item` to `self.put_nowait`" in page.what_it_means, (
        page.what_it_means
    )
