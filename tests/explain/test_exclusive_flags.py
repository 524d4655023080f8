"""Two flags that exclude each other: the way out is to give one, each named as the user
passes it (a field of a JSON-valued flag by its field), however many earlier exits the
function has; an exact setting is said before one that only names a flag, and the check's
own setting before the earlier exit that turns the feature off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

# Many early exits on flags above the check, as vllm's `EngineArgs.create_engine_config`.
_EXITS = "\n".join(f"        if self.switch_{n}:\n            return None" for n in range(14))
_FIELDS = "\n".join(f"    switch_{n}: bool = False" for n in range(14))

ENG = {
    "eng/__init__.py": "",
    "eng/envs.py": """
        import os

        ENG_USE_V2 = os.getenv("ENG_USE_V2")
        """,
    "eng/config.py": """
        from dataclasses import dataclass

        from eng import envs


        @dataclass
        class AttentionConfig:
            backend: str | None = None


        @dataclass
        class AuxConfig:
            enabled: bool = False


        class EngineConfig:
            @property
            def use_v2(self):
                if self.attention_config.backend == "flex":
                    return True
                return envs.ENG_USE_V2

            def check_aux(self):
                if not self.aux_config.enabled:
                    return
                if not envs.ENG_USE_V2:
                    raise ValueError("aux outputs require the V2 runner")

            def check_replay(self):
                if not self.use_v2:
                    raise ValueError("replay requires the V2 runner")
        """,
    "eng/bench.py": """
        import argparse

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--backend")
        """,
    "eng/args.py": f"""
import copy
from dataclasses import dataclass, field

from eng.config import AttentionConfig, AuxConfig


@dataclass
class EngineArgs:
    attention_backend: str | None = None
    attention_config: AttentionConfig = field(default_factory=AttentionConfig)
    aux_config: AuxConfig = field(default_factory=AuxConfig)
{_FIELDS}

    def create_engine_config(self):
{_EXITS}
        attention_config = copy.deepcopy(self.attention_config)
        if self.attention_backend is not None:
            if attention_config.backend is not None:
                raise ValueError(
                    "attention_backend and attention_config.backend are mutually exclusive"
                )
""",
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_either_flag_left_out_is_a_way_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "attention_backend and attention_config.backend")
    texts = [s.text for s in page.solutions]
    assert texts[:2] == [
        "Do not pass `--attention-backend` in any form (so that `self.attention_backend` is None).",
        "Pass `--attention-config '{\"backend\": null}'` (with the rest of your "
        "--attention-config fields) (so that `attention_config.backend` is None).",
    ]
    # `--backend` of another parser is not the field of `--attention-config`
    assert not any("`--backend" in t for t in texts)


def test_an_exact_setting_comes_before_a_flag_only_named(eng: Store) -> None:
    page = page_with_message(eng, "eng", "replay requires the V2 runner")
    assert page.solutions[0].text == (
        "Set `ENG_USE_V2` to a non-empty value (so that `self.use_v2` is true)."
    )


def test_the_checks_own_setting_comes_before_turning_the_feature_off(eng: Store) -> None:
    page = page_with_message(eng, "eng", "aux outputs require the V2 runner")
    assert [s.text for s in page.solutions] == [
        "Set `ENG_USE_V2` to a non-empty value (so that `envs.ENG_USE_V2` is true).",
        "Pass `--aux-config '{\"enabled\": false}'` (with the rest of your --aux-config "
        "fields) (so that `self.aux_config.enabled` is false).",
    ]
