"""A mode the message says is needed, turned on by the environment variable of its name:
"needs runner V2" with a check on `config.use_v2_runner` of an object handed in, in a
version that reads `MODES_USE_V2_RUNNER`. Nothing without all three."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

MODES = {
    "modes/__init__.py": """
        from modes.layers import Layer
        """,
    "modes/envs.py": """
        import os

        MODES_USE_V2_RUNNER = os.getenv("MODES_USE_V2_RUNNER", "0") == "1"
        MODES_REPLAY = os.getenv("MODES_REPLAY", "0") == "1"
        """,
    "modes/config.py": """
        from modes import envs


        class Config:
            def __init__(self):
                self.validate()

            @property
            def use_v2_runner(self):
                return envs.MODES_USE_V2_RUNNER

            def validate(self):
                if envs.MODES_REPLAY and not self.use_v2_runner:
                    raise ValueError("Config replay requires the V2 runner.")
        """,
    "modes/layers.py": """
        class Layer:
            def __init__(self, config, replay=False):
                if replay and not config.use_v2_runner:
                    raise ValueError("Bounded replay needs runner V2; the cache is kept instead.")
                self.config = config

            def beams(self, config):
                if not config.use_v2_runner:
                    raise ValueError("Beam lists require the V2 runner")

            def lists(self, config):
                if not config.use_v2_runner:
                    raise ValueError("Beam lists are not supported here")

            def fast(self, config):
                if not config.use_fast_path:
                    raise ValueError("This requires the fast path")
        """,
}


@pytest.fixture(scope="module")
def modes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("modes"), "modes", MODES)


def test_the_variable_of_the_mode_the_message_needs_is_set(modes: Store) -> None:
    page = page_with_message(modes, "modes", "Beam lists require the V2 runner")
    first = page.solutions[0]
    assert first.text == ("Set `MODES_USE_V2_RUNNER=1` (so that `config.use_v2_runner` is true).")
    assert first.fix is not None and "MODES_USE_V2_RUNNER=1" in first.fix.after


def test_the_mode_comes_before_dropping_the_other_part(modes: Store) -> None:
    # `replay and not config.use_v2_runner`: the mode on keeps the replay the user asked for
    page = page_with_message(modes, "modes", "Bounded replay needs runner V2")
    assert page.solutions[0].text.startswith("Set `MODES_USE_V2_RUNNER=1` (so that")


def test_a_linked_variable_of_the_named_mode_comes_before_the_other_part(modes: Store) -> None:
    # the linker follows `self.use_v2_runner` to the variable; the page takes the first
    # part's setting of an `and`: the mode the message names is offered too, first
    page = page_with_message(modes, "modes", "Config replay requires the V2 runner.")
    assert page.solutions[0].text.startswith("Set `MODES_USE_V2_RUNNER` to a non-empty value")
    assert any("`MODES_REPLAY`" in s.text for s in page.solutions[1:])


def test_no_variable_without_the_message_naming_the_mode_or_a_variable_of_it(
    modes: Store,
) -> None:
    page = page_with_message(modes, "modes", "Beam lists are not supported here")
    assert not any("MODES_USE_V2_RUNNER" in s.text for s in page.solutions)
    page = page_with_message(modes, "modes", "This requires the fast path")
    assert not any("MODES_" in s.text for s in page.solutions)
