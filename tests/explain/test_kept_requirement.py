"""A message's stated rule of a value the user gave a class they make, checked where the
user does not call: a private method the class's `__post_init__` runs itself reads the
fields as the call gave them ("Make the argument `logprobs` of `Sampling` non-negative or
-1"); a value shown in brackets beside the name is no part of it, and a bound is kept
("Keep the argument `rank` of `Ranks` below `size`"). What the class computed itself, or
a method nobody runs at construction, gets no such way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_in_function

from errdex.explain.stated_requirement import requirements
from errdex.store import Store

FILES = {
    "kept/__init__.py": (
        "from kept.params import Counter, Gauge, Meter, Ranks, Sampling, TopK, Window\n"
    ),
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


        @dataclass
        class TopK:
            top_k: int | None = None

            def __post_init__(self):
                if self.top_k is None:
                    self.top_k = -1
                self._verify()

            def _verify(self):
                if self.top_k < -1 or self.top_k == 0:
                    raise ValueError(f"top_k must be -1 (disable) or at least 1, got {self.top_k}.")


        class Counter:
            def __init__(self, limit):
                self.limit = limit

            def step(self):
                self.limit -= 1
                self._check()

            def _check(self):
                if self.limit < 0:
                    raise ValueError(f"limit must be non-negative, got {self.limit}.")


        class Meter:
            def __init__(self, limit):
                self.limit = limit

            def run(self):
                self._check()

            def _check(self):
                if self.limit < 0:
                    raise ValueError(f"limit must be non-negative, got {self.limit}.")


        class Gauge:
            def __init__(self, limit):
                self.limit = limit
                self._check()

            def _check(self):
                if self.limit < 0:
                    raise ValueError(f"limit must be non-negative, got {self.limit}.")
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
    # nothing else either, each page built with its check read
    for function in ("Window._check", "Ranks._later"):
        page = page_in_function(kept, "kept", function)
        assert offered(page) == [] and checks(page), function


def test_a_value_shown_beside_the_name_and_a_bound(kept: Store) -> None:
    texts = _texts(kept, "Ranks.__post_init__")
    assert texts[0].startswith("Keep the argument `rank` of `Ranks` below `size`, as the message")


# A command's package (it installs `deep`), whose record class sits four modules deep: the
# module's `__all__` hands it to users, and its base in another module declares `rank`.
DEEP = {
    "pyproject.toml": """
        [project]
        name = "deep"
        version = "1.0"
        [project.scripts]
        deep = "deep.cli:main"
        """,
    "deep/__init__.py": "",
    "deep/cli.py": "def main():\n    return 0\n",
    "deep/a/__init__.py": "",
    "deep/a/b/__init__.py": "",
    "deep/a/b/base.py": """
        from dataclasses import dataclass, field


        @dataclass
        class TrainerInfo:
            rank: int = field(kw_only=True)

            def __init_subclass__(cls, **kwargs):
                if not getattr(cls, "backend", None):
                    raise TypeError(f"{cls.__name__} must set a class-level `backend`")


        @dataclass
        class RingInfo:
            rank: int = field(kw_only=True)

            def step(self):
                self.rank = self.rank + 1
        """,
    "deep/a/b/trainer.py": """
        from dataclasses import dataclass

        from deep.a.b.base import RingInfo, TrainerInfo

        __all__ = ["Info", "Plain", "Ring"]


        def valid_rank(rank, size):
            return 0 <= rank < size


        @dataclass(kw_only=True)
        class Info(TrainerInfo):
            backend = "info"
            size: int = 1

            def __post_init__(self):
                if not valid_rank(self.rank, self.size):
                    raise ValueError(
                        f"trainer `rank` ({self.rank}) must be below `size` ({self.size})"
                    )


        @dataclass(kw_only=True)
        class Hidden(TrainerInfo):
            backend = "hidden"

            def __post_init__(self):
                if not valid_rank(self.rank, 2):
                    raise ValueError(f"hidden `rank` ({self.rank}) must be below 2")


        @dataclass(kw_only=True)
        class Ring(RingInfo):
            size: int = 1

            def __post_init__(self):
                if not valid_rank(self.rank, self.size):
                    raise ValueError(
                        f"ring `rank` ({self.rank}) must be below `size` ({self.size})"
                    )


        class Plain:
            def __init__(self, rank, size):
                if not valid_rank(rank, size):
                    raise ValueError(f"plain `rank` ({rank}) must be below `size` ({size})")
        """,
}


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("deep"), "deep", DEEP)


def test_a_record_its_module_exports_is_the_users_however_deep(deep: Store) -> None:
    texts = [s.text for s in page_in_function(deep, "deep", "Info.__post_init__").solutions]
    # the base's field, in another module, is a keyword of the record's call too
    assert texts[0].startswith("Keep the argument `rank` of `Info` below `size`, as the message")
    # a record its module does not export, and an exported class that is no record: the
    # package's own to make, as far as depth tells
    for function in ("Hidden.__post_init__", "Plain.__init__"):
        page = page_in_function(deep, "deep", function)
        assert not any("argument `rank`" in s.text for s in page.solutions)
        assert offered(page) == [] and checks(page), function


def test_a_field_its_base_assigns_itself_is_not_the_keyword_as_given(deep: Store) -> None:
    # `RingInfo.step()` moves `rank` on: what the check reads may be no longer what the
    # record's call gave, so the base's field is no keyword of `Ring`'s call
    page = page_in_function(deep, "deep", "Ring.__post_init__")
    assert not any("argument `rank`" in s.text for s in page.solutions)
    assert offered(page) == [] and checks(page)


def test_a_check_no_construction_runs_on_the_value_as_given(kept: Store) -> None:
    # `step()` changes `limit` before `_check()` reads it: the keyword is no way out
    assert not any("argument `limit`" in t for t in _texts(kept, "Counter._check"))
    # nor where only a later call runs the check (the class never changes it, code
    # outside it may)
    assert not any("argument `limit`" in t for t in _texts(kept, "Meter._check"))
    for function in ("Counter._check", "Meter._check"):
        page = page_in_function(kept, "kept", function)
        assert offered(page) == [] and checks(page), function
    # the constructor runs the check right after keeping the keyword: it is
    assert _texts(kept, "Gauge._check")[0].startswith(
        "Make the argument `limit` of `Gauge` non-negative, as the message says"
    )


@pytest.mark.parametrize(
    ("message", "wants"),
    [
        ("mode must be one of ({', '.join(MODES)})", "one of ({', '.join(MODES)})"),
        ("dtype must be in ({allowed}), got {dtype}", "in ({allowed}), got {dtype}"),
        ("size must be a multiple of ({block})", "a multiple of ({block})"),
        ("heads must be divisible by ({tp_size})", "divisible by ({tp_size})"),
        ("trainer `rank` ({self.rank}) must be below `size` ({self.size})", "below `size`"),
    ],
)
def test_a_shown_value_that_is_what_is_wanted_is_kept(message: str, wants: str) -> None:
    (stated,) = requirements(message)
    assert stated.wants == wants


def test_a_negative_constant_given_in_place_of_none_is_still_the_users_value(kept: Store) -> None:
    # `None` swapped for `-1` before the check: the check sees the user's value or `-1`
    assert _texts(kept, "TopK._verify")[0].startswith(
        "Make the argument `top_k` of `TopK` -1 (disable) or at least 1, as the message says"
    )
