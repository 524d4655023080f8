"""A class passed where an instance was wanted: `issubclass(x, C)` fails after an exit that
takes instances of `C` as they are; the way out is to instantiate it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/types.py": """
        class Kind:
            pass


        TEXT = Kind()


        def to_kind(ty):
            if isinstance(ty, Kind):
                return ty
            if ty is str or ty is None:
                return TEXT
            if issubclass(ty, Kind):
                raise AssertionError(f"an uninstantiated kind ({ty})")
            return TEXT


        def check_kind(ty):
            if issubclass(ty, Kind):
                raise TypeError(f"a kind class ({ty})")
            return ty
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("instances"), "lab", LAB)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "lab", message).solutions]


def test_a_class_where_an_instance_is_taken_is_instantiated(lab: Store) -> None:
    found = texts(lab, "an uninstantiated kind ({ty})")
    assert found[0] == (
        "Pass an instance, not the class, for the argument `ty` of `to_kind`: write "
        "`YourType()` where you wrote `YourType` (line 10 takes an instance of `Kind` as it is)."
    )
    # the exit for None returns the default type instead: no way out of this one
    assert not any("None" in t for t in found)


def test_no_exit_for_instances_says_nothing_of_instantiating(lab: Store) -> None:
    assert not any("instance" in t for t in texts(lab, "a kind class ({ty})"))
