"""A keyword of another object's constructor: the check reads an attribute of an argument
annotated with a public class of the same file, which its `__init__` set from a keyword."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/core.py": """
        class Command:
            def __init__(self, name):
                self.name = name


        class Group(Command):
            def __init__(self, name, chain=False, strict=True):
                super().__init__(name)
                self.chain = chain
                self.strict = strict
                self.count = len(name)

            def add(self, cmd):
                _check_nested(self, cmd)
                _check_strict(self, cmd)


        def _check_nested(base: "Group", cmd: Command) -> None:
            if not base.chain or not isinstance(cmd, Group):
                return
            raise RuntimeError("a group under a chained group")


        def _check_strict(base: "Group", cmd: Command) -> None:
            if base.strict and cmd.name.startswith("_"):
                raise RuntimeError("a private name under a strict group")


        def _check_count(base: "Group") -> None:
            if base.count > 3:
                raise RuntimeError("a long name")
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("other"), "lab", LAB)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "lab", message).solutions]


def test_a_flag_of_the_argument_s_class_left_out(lab: Store) -> None:
    assert texts(lab, "a group under a chained group")[0] == (
        "If you made the `Group`: make it without `chain=True` (leave `chain` out: it is "
        "`False` by default); the check at line 20 reads `base.chain`, which `Group(...)` "
        "sets from its keyword `chain`."
    )


def test_a_flag_on_by_default_is_not_turned_off(lab: Store) -> None:
    # an `if` around the work, and a default that is on: no change of design is offered
    assert not any("strict" in t for t in texts(lab, "a private name under a strict group"))


def test_an_attribute_computed_from_a_keyword_is_no_way_out(lab: Store) -> None:
    assert not any("Group" in t for t in texts(lab, "a long name"))
