"""A message's stated rule of a value the user gave a class they make, checked where the
user does not call: a private method the class's `__post_init__` runs itself reads the
fields as the call gave them ("Make the argument `logprobs` of `Sampling` non-negative or
-1"); a value shown in brackets beside the name is no part of it, and a bound is kept
("Keep the argument `rank` of `Ranks` below `size`"). What the class computed itself, or
a method nobody runs at construction, gets no such way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "kept/__init__.py": "from kept.params import Ranks, Sampling, Window\n",
    "kept/params.py": """
        from dataclasses import dataclass


        @dataclass
        class Sampling:
            logprobs: int | None = None
            seed: int | None = None

            def __post_init__(self):
                if self.logprobs is True:
                    self.logprobs = 1
                self._verify_args()

            def _verify_args(self):
                if self.logprobs is not None and self.logprobs != -1 and self.logprobs < 0:
                    raise ValueError(f"logprobs must be non-negative or -1, got {self.logprobs}.")


        @dataclass
        class Window:
            size: int = 1

            def __post_init__(self):
                self.size = abs(self.size) - 4
                self._check()

            def _check(self):
                if self.size < 0:
                    raise ValueError(f"size must be non-negative, got {self.size}.")


        def valid_rank(rank, size):
            return 0 <= rank < size


        @dataclass
        class Ranks:
            rank: int = 0
            size: int = 1

            def __post_init__(self):
                if not valid_rank(self.rank, self.size):
                    raise ValueError(
                        f"trainer `rank` ({self.rank}) must be below `size` ({self.size})"
                    )

            def _later(self):
                if self.size < 0:
                    raise ValueError(f"size must be non-negative, got {self.size}.")
        """,
}


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kept"), "kept", FILES)


def _texts(store: Store, function: str) -> list[str]:
    return [s.text for s in page_in_function(store, "kept", function).solutions]


def test_a_private_check_run_at_construction_states_the_rule_of_the_keyword(kept: Store) -> None:
    texts = _texts(kept, "Sampling._verify_args")
    # first, before giving the keyword up (None); `True` made `1` first still is the value given
    assert texts[0] == (
        "Make the argument `logprobs` of `Sampling` non-negative or -1, as the message says: "
        "“logprobs must be non-negative or -1, got LOGPROBS.”"
    )
    # `size` recomputed before the check is not the value the user gave
    assert not any("argument `size` of `Window`" in t for t in _texts(kept, "Window._check"))
    # a private method no construction runs: no call of the user's reaches it for sure
    assert not any("argument `size` of `Ranks`" in t for t in _texts(kept, "Ranks._later"))


def test_a_value_shown_beside_the_name_and_a_bound(kept: Store) -> None:
    texts = _texts(kept, "Ranks.__post_init__")
    assert texts[0].startswith("Keep the argument `rank` of `Ranks` below `size`, as the message")
