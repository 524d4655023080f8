"""A warning's way out that leaves off the user's own setting, where the check past it tests
the machine: the setting asks for what the machine cannot run, so leaving it off comes
before changing the machine."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/envs.py": """
        import os

        LAB_FAST_OPS = bool(int(os.getenv("LAB_FAST_OPS", "0")))
        """,
    "lab/ops.py": """
        import logging
        import sys

        from lab import envs

        logger = logging.getLogger(__name__)


        def fast_ops_supported(layer):
            if not envs.LAB_FAST_OPS:
                return False
            if layer is None:
                return False
            if sys.platform != "linux":
                logger.warning("fast ops disabled: only Linux is supported.")
                return False
            return True


        def fast_ops_sized(layer, width):
            if not envs.LAB_FAST_OPS:
                return False
            if width % 256:
                logger.warning("fast ops disabled: width is not a multiple of 256.")
                return False
            return True
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("machine"), "lab", LAB)


def test_the_users_setting_left_off_comes_before_another_machine(lab: Store) -> None:
    page = page_with_message(lab, "lab", "fast ops disabled: only Linux")
    kinds = [(s.kind, s.knob) for s in page.solutions]
    assert kinds[0] == ("setting", "LAB_FAST_OPS"), page.solutions
    assert "cannot run on this machine" in page.solutions[0].text
    assert page.solutions[1].text.startswith("Run it on Linux"), page.solutions
    assert "The guard at line 10 is no way out" not in page.what_it_means


def test_the_setting_is_no_way_out_where_no_check_tests_the_machine(lab: Store) -> None:
    # the width is the model's: turning the setting off only hides the warning
    page = page_with_message(lab, "lab", "fast ops disabled: width")
    assert not any(s.knob == "LAB_FAST_OPS" for s in page.solutions), page.solutions
    assert "the fallback this warning announces" in page.what_it_means


PASSES = {
    "passes/__init__.py": "",
    "passes/config/__init__.py": "",
    # three dots deep: the package builds it from the user's command line, no user's own call
    "passes/config/compilation.py": """
        import logging
        import sys
        from dataclasses import dataclass

        logger = logging.getLogger(__name__)


        @dataclass
        class PassConfig:
            fuse_padding: bool = None
            fuse_norm: bool = None

            def __post_init__(self):
                if self.fuse_padding and sys.platform != "linux":
                    logger.warning("Padding fusion enabled but the platform is not Linux.")
                    self.fuse_padding = False
                if self.fuse_norm and sys.platform != "linux":
                    logger.warning("Norm fusion enabled but the platform is not Linux.")
        """,
}


@pytest.fixture(scope="module")
def passes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("passes"), "passes", PASSES)


def test_a_setting_the_code_turns_off_on_this_machine_is_left_off(passes: Store) -> None:
    page = page_with_message(passes, "passes", "Padding fusion enabled")
    first = page.solutions[0].text
    assert first.startswith("Do not turn on `fuse_padding` of `PassConfig` on this machine"), first
    assert "(line 17)" in first, first
    assert page.solutions[1].text.startswith("Run it on Linux"), page.solutions


def test_a_setting_the_code_keeps_is_not_said_to_be_turned_off(passes: Store) -> None:
    # nothing turns `fuse_norm` off after its warning: no such claim
    page = page_with_message(passes, "passes", "Norm fusion enabled")
    assert not any("Do not turn on" in s.text for s in page.solutions), page.solutions
