"""A variable a property falls back from on its own when unset: setting it is the way out
where the user set it to the other value, and where the property fell back for a feature,
setting it leads into the check that refuses that feature."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

ENVS = """
    import os

    environment_variables = {
        "RUN_V2": lambda: maybe_convert_bool(os.getenv("RUN_V2", None)),
        "RUN_FAST": lambda: maybe_convert_bool(os.getenv("RUN_FAST", None)),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """

CONFIG = """
    import logging

    from run import envs

    logger = logging.getLogger(__name__)


    class RunConfig:
        def __post_init__(self):
            if self.use_v2:
                self._validate_v2()
            self._verify_replay()
            self._verify_fast()

        @property
        def use_v2(self) -> bool:
            use_v2 = envs.RUN_V2
            if use_v2 is not None:
                return use_v2
            if not HAS_TRITON:
                logger.warning("Runner V2 requires Triton; using V1 instead.")
                return False
            unsupported = self._unsupported_features()
            if unsupported:
                logger.warning("Runner V2 does not support %s; using V1.", unsupported)
                return False
            return True

        @property
        def use_fast(self) -> bool:
            fast = envs.RUN_FAST
            if fast is not None:
                return fast
            if self.tiny:
                logger.warning("Fast mode is off for tiny models.")
                return False
            return False

        def _validate_v2(self):
            unsupported = self._unsupported_features()
            if unsupported:
                raise ValueError(f"Runner V2 does not yet support: {unsupported}")

        def _verify_replay(self):
            if self.replay and not self.use_v2:
                raise ValueError("Replay requires runner V2")

        def _verify_legacy(self):
            if self.legacy and self.use_v2:
                raise ValueError("Legacy mode needs runner V1")

        def _verify_fast(self):
            if self.replay and not self.use_fast:
                raise ValueError("Replay requires fast mode")
    """


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"run/__init__.py": "", "run/envs.py": ENVS, "run/config.py": CONFIG}
    yield from indexed_package(tmp_path_factory.mktemp("run"), "run", files)


def setting_texts(page: Page) -> list[str]:
    return [s.text for s in page.solutions if s.kind == "setting"]


def test_the_setting_says_when_it_is_the_way_out(run: Store) -> None:
    (text,) = setting_texts(page_with_message(run, "run", "Replay requires runner V2"))
    assert text.startswith("Set `RUN_V2=1` (so that ")
    assert text.endswith(
        "This is the way out where your environment sets `RUN_V2` to a false value: unset, "
        "`RunConfig.use_v2` gives a true value unless it falls back and logs why: "
        "“Runner V2 requires Triton; using V1 instead.”; “Runner V2 does not support "
        "UNSUPPORTED; using V1.” (then setting it makes `RunConfig._validate_v2` raise "
        "“Runner V2 does not yet support: UNSUPPORTED”: turn off what the warning names "
        "instead)."
    )


def test_no_note_when_the_property_is_false_by_default(run: Store) -> None:
    # unset, `use_fast` is false anyway: setting the variable is the way out, no fallback
    texts = setting_texts(page_with_message(run, "run", "Replay requires fast mode"))
    assert texts
    assert not any("falls back" in t for t in texts)


def test_no_note_on_turning_the_variable_off(run: Store) -> None:
    texts = setting_texts(page_with_message(run, "run", "Legacy mode needs runner V1"))
    assert any(t.startswith("Set `RUN_V2=0`") for t in texts)
    assert not any("falls back" in t for t in texts)
