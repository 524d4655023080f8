"""A check of how many of the user's keywords were given (`count = sum([a is not None,
...])`, then `if count > 1: raise`): the way out is how many of them to give, named, for a
dataclass's fields or a public function's arguments; nothing for values of the program's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "pick/__init__.py": "from pick.params import Constraint, choose\n",
    "pick/params.py": """
        from dataclasses import dataclass


        @dataclass
        class Constraint:
            json: str | None = None
            regex: str | None = None
            choice: list | None = None

            def __post_init__(self):
                count = sum(
                    [self.json is not None, self.regex is not None, self.choice is not None]
                )
                if count > 1:
                    raise ValueError("only one kind of constraint")
                if count < 1:
                    raise ValueError("no constraint given")


        def choose(first=None, second=None):
            if sum([first is not None, second is not None]) != 1:
                raise ValueError("give exactly one of first and second")
            return first or second


        def _tally(items, seen):
            total = sum([items is not None, seen is not None])
            if total > 1:
                raise ValueError("an internal tally")
        """,
}


@pytest.fixture(scope="module")
def pick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("counted"), "pick", FILES)


def first(store: Store, message: str) -> str | None:
    page = page_with_message(store, "pick", message)
    return page.solutions[0].text if page.solutions else None


def test_a_count_of_a_dataclass_fields_given_says_how_many_to_give(pick: Store) -> None:
    # before: no solution ("errdex found no setting or argument a user passes behind that")
    assert first(pick, "only one kind of constraint") == (
        "Give `Constraint` at most one of `json`, `regex`, `choice`: the check at line 15 "
        "counts those given (not None) and fails otherwise."
    )
    assert first(pick, "no constraint given") == (
        "Give `Constraint` one of `json`, `regex`, `choice`: the check at line 17 counts "
        "those given (not None) and fails otherwise."
    )


def test_a_count_of_a_public_functions_arguments_given(pick: Store) -> None:
    assert first(pick, "give exactly one of") == (
        "Give `choose` exactly one of `first`, `second`: the check at line 22 counts those "
        "given (not None) and fails otherwise."
    )


def test_no_count_solution_for_an_internal_functions_values(pick: Store) -> None:
    text = first(pick, "an internal tally")
    assert text is None or "Give" not in text
