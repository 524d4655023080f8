"""A flag left out whose field the code fills with a default object of the flag's own class
(`if self.engram_config is None: ... self.engram_config = EngramConfig()`) is no way out:
"Do not pass `--engram-config` in any form" leaves the check running as before. A fill in a
method that returns first for another setting keeps the way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class EngramConfig:
            shared: bool = True


        @dataclass
        class AuxConfig:
            size: int = 1


        @dataclass
        class AppConfig:
            engram_config: EngramConfig | None = None
            aux_config: AuxConfig | None = None
            offload_size: int | None = None
            layers: int = 0

            def __post_init__(self):
                self._resolve_engram()
                self._resolve_aux()

            def _resolve_engram(self):
                if self.engram_config is None:
                    if not self.layers:
                        return
                    self.engram_config = EngramConfig()
                if not self.engram_config.shared and self.layers > 8:
                    raise ValueError("unshared engram tables need at most 8 layers")

            def _resolve_aux(self):
                if self.offload_size is None:
                    return
                if self.aux_config is None:
                    self.aux_config = AuxConfig()
                if self.aux_config.size < 0:
                    raise ValueError("the aux size must not be negative")


        def share_tables(app_config):
            if app_config.engram_config is not None:
                raise RuntimeError("engram tables are not shared on this device")


        def attach(app_config):
            if app_config.aux_config is not None:
                raise RuntimeError("aux outputs are not kept on this device")
        """,
    "eng/args.py": """
        from dataclasses import dataclass

        from eng.config import AppConfig, AuxConfig, EngramConfig


        @dataclass
        class EngineArgs:
            engram_config: EngramConfig | None = None
            aux_config: AuxConfig | None = None

            def create_config(self):
                if self.engram_config is not None and self.aux_config is not None:
                    raise ValueError("engram and aux outputs do not go together")
                return AppConfig(
                    engram_config=self.engram_config,
                    aux_config=self.aux_config,
                )
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_flag_the_code_fills_with_a_default_is_no_way_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "engram tables are not shared")
    # not offered: "Do not pass `--engram-config` in any form (so that ... is None)."
    assert not any("Do not pass `--engram-config`" in s.text for s in page.solutions)
    assert (
        "Leaving out `--engram-config` is no way out: when it is left out, "
        "`AppConfig._resolve_engram` makes a default one in its place (eng/config.py:"
    ) in page.what_it_means


def test_a_fill_behind_another_settings_return_keeps_the_way_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "aux outputs are not kept")
    assert any(s.text.startswith("Do not pass `--aux-config` in any form") for s in page.solutions)
    assert "is no way out: when it is left out" not in page.what_it_means


# the same package run as `eng serve`, its flags read from `EngineArgs.add_cli_args`
SERVED = {
    **ENG,
    **SERVE_CLI,
    "eng/args.py": ENG["eng/args.py"].replace(
        "from dataclasses", "import json\n        from dataclasses"
    )
    + """

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--engram-config", type=json.loads)
                parser.add_argument("--aux-config", type=json.loads)
                return parser
        """,
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("served"), "eng", SERVED)


def test_no_example_fix_leaves_out_a_flag_the_code_fills(served: Store) -> None:
    # the fix of a setting on the path, drawn when no solution has one, gave
    # `eng serve MODEL_TAG --engram-config VALUE` -> `eng serve MODEL_TAG`: the way out
    # "What it means" calls none
    page = page_with_message(served, "eng", "engram tables are not shared")
    assert "Leaving out `--engram-config` is no way out" in page.what_it_means
    assert page.example_fix is None, page.example_fix
    # a flag the code does not fill keeps its fix
    kept = page_with_message(served, "eng", "aux outputs are not kept")
    assert kept.example_fix is not None and "--aux-config" in kept.example_fix.before
