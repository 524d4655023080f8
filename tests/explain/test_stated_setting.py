"""A message that states what a key of a JSON-valued flag must be, on a check of such keys
alone (`self.depth < 1`: "depth=... must be >= 1"): the way out is that requirement said of
the keys it names in the flag's JSON; nothing for a key the program fills in itself, nor
for a check that reads more than the flag's keys."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message
from test_config_key_solutions import ENG as KEYS

from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            depth: int = 4
            \"\"\"How deep the tree grows.\"\"\"
            cache: bool | None = None
            \"\"\"Keep the tree in memory; None: decided from the depth.\"\"\"
            shared: bool | None = None
            \"\"\"Share the cached tree.\"\"\"
            auto: bool = False
            \"\"\"Pick the depth alone.\"\"\"
            pooling: str | None = None
            \"\"\"How to pool.\"\"\"

            def __post_init__(self):
                if self.depth < 1:
                    raise ValueError(f"depth={self.depth} must be >= 1")
                if self.shared and not self.cache:
                    raise ValueError("shared requires cache=True")
                if self.auto and self.depth > 8:
                    raise ValueError("depth must be at most 8 when picked alone")
                if self.pooling is None:
                    raise ValueError(
                        "pooling is not set; it should be resolved by the model before calling"
                    )
                if self.depth > self.limit():
                    raise ValueError("depth must be below the limit")

            def limit(self):
                return 16
        """,
    "eng/args.py": KEYS["eng/args.py"],  # the flag whose JSON the config takes
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def _texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "eng", message).solutions]


def test_a_bound_on_a_key_is_the_message_s_requirement_of_the_key(eng: Store) -> None:
    assert _texts(eng, "depth=")[0] == (
        "Change `depth` in the JSON of `--spec-config` as the message says: "
        "“depth=DEPTH must be >= 1”"
    )


def test_keys_the_message_names_together(eng: Store) -> None:
    # `cache: bool | None`: a yes/no key, given the value the message asks
    assert _texts(eng, "shared requires") == [
        "Pass `--spec-config '{\"cache\": true}'` (with the rest of your --spec-config fields) "
        "(so that `self.cache` is set (not empty, zero or None))."
    ]


def test_of_a_test_that_needs_all_its_parts_the_key_the_message_names(eng: Store) -> None:
    texts = _texts(eng, "depth must be at most 8")
    assert (
        "Change `depth` in the JSON of `--spec-config` as the message says: "
        "“depth must be at most 8 when picked alone”"
    ) in texts


@pytest.mark.parametrize(
    "message",
    [
        "pooling is not set",  # what the program fills in, not the user
        "depth must be below the limit",  # reads the object's own method too
    ],
)
def test_no_requirement_of_a_key_the_user_does_not_decide(eng: Store, message: str) -> None:
    assert not any("as the message says" in t for t in _texts(eng, message))


def test_a_yes_no_key_turned_off_comes_after_the_requirement_that_keeps_it(eng: Store) -> None:
    texts = _texts(eng, "depth must be at most 8")
    assert texts[0].startswith("Change `depth` in the JSON of `--spec-config` as the message says")
    # turning `auto` off also avoids the check, but gives up what the user turned on
    assert any(t.startswith("Pass `--spec-config '{\"auto\": false}'`") for t in texts[1:])


@pytest.fixture(scope="module")
def yes_no(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """The configuration with `cache` a plain yes/no key (False unless the user turns it on)."""
    config = ENG["eng/config.py"].replace("cache: bool | None = None", "cache: bool = False")
    files = {**ENG, "eng/config.py": config}
    yield from indexed_package(tmp_path_factory.mktemp("yes_no"), "eng", files)


def test_a_yes_no_key_the_message_names_is_given_its_value(yes_no: Store) -> None:
    # `{"cache": true}` is what the message asks, with the value: not said again in its words
    assert _texts(yes_no, "shared requires") == [
        "Pass `--spec-config '{\"cache\": true}'` (with the rest of your --spec-config fields) "
        "(so that `self.cache` is set (not empty, zero or None))."
    ]
