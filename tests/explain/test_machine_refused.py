"""A warning's way out that leaves off the user's own setting, where the check past it tests
the machine: the setting asks for what the machine cannot run, so leaving it off comes
before changing the machine."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.build import build_page
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


# the same class as a section of the object `--compilation-config` takes as JSON
HELD = {
    **PASSES,
    "passes/config/compilation.py": PASSES["passes/config/compilation.py"]
    + """

        @dataclass
        class CompilationConfig:
            pass_config: PassConfig = None
            splitting_ops: list | None = None

            def set_splitting_ops(self):
                if self.pass_config.fuse_norm and self.splitting_ops is None:
                    self.set_splitting_ops_for_fusion()

            def set_splitting_ops_for_fusion(self):
                assert self.pass_config.fuse_norm
                self.splitting_ops = []

            def check_norm(self):
                if not self.pass_config.fuse_norm:
                    raise ValueError("norm fusion is off")
        """,
    "passes/config/args.py": """
        from dataclasses import dataclass

        from passes.config.compilation import CompilationConfig


        @dataclass
        class EngineArgs:
            compilation_config: CompilationConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--compilation-config", type=str)
                return parser
        """,
}


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("held"), "passes", HELD)


def test_a_setting_turned_off_is_said_as_the_key_of_the_flags_json(held: Store) -> None:
    # the user turns it on as a key of `pass_config` in the JSON of `--compilation-config`:
    # the page says that key, once (not beside a plain "Change ..." of the same key)
    page = page_with_message(held, "passes", "Padding fusion enabled")
    first = page.solutions[0]
    assert first.text.startswith(
        "Leave `fuse_padding` out of `pass_config` in the JSON of `--compilation-config`, "
        "or set it to `false`, on this machine"
    ), page.solutions
    assert "(line 17)" in first.text, first
    assert first.knob == "--compilation-config", first
    assert not any(s.knob == first.knob for s in page.solutions[1:]), page.solutions
    assert page.solutions[1].text.startswith("Run it on Linux"), page.solutions


def test_a_sections_key_the_class_reads_is_said_as_the_key_of_the_flags_json(
    held: Store,
) -> None:
    # `self.pass_config.fuse_norm` in the class whose object `--compilation-config` takes
    page = page_with_message(held, "passes", "norm fusion is off")
    assert [s.knob for s in page.solutions] == ["--compilation-config"], page.solutions
    assert "`fuse_norm` in `pass_config` in the JSON of `--compilation-config`" in (
        page.solutions[0].text
    ), page.solutions


def test_an_assert_every_caller_tests_first_has_no_way_out(held: Store) -> None:
    # the one caller calls it only when `self.pass_config.fuse_norm` holds: turning the
    # key on says only what the caller tests already
    page = next(
        build_page(held, s.id)
        for s in held.list_sites()
        if s.site.function.endswith("set_splitting_ops_for_fusion")
    )
    assert not page.solutions, page.solutions
