"""A flag taking a JSON object of a configuration class's fields: a key of that JSON is a
field, never a property or method of the class (the class forbids other keys). A property
that returns a field as is leads to that field; any other gives no way out through the flag."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

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
        class AuxConfig:
            enable_experts: bool = False
            enable_logits: bool = False

            @property
            def enabled(self) -> bool:
                return self.enable_experts

            @property
            def any_enabled(self) -> bool:
                return self.enable_experts or self.enable_logits


        class EngineConfig:
            def check_aux(self):
                if not self.aux_config.enabled:
                    return
                if not envs.ENG_USE_V2:
                    raise ValueError("aux outputs require the V2 runner")

            def check_any(self):
                if self.aux_config.any_enabled and not envs.ENG_USE_V2:
                    raise ValueError("some aux output requires the V2 runner")
        """,
    "eng/args.py": """
        from dataclasses import dataclass, field

        from eng.config import AuxConfig


        @dataclass
        class EngineArgs:
            aux_config: AuxConfig = field(default_factory=AuxConfig)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_property_returning_a_field_leads_to_that_field(eng: Store) -> None:
    page = page_with_message(eng, "eng", "aux outputs require the V2 runner")
    texts = [s.text for s in page.solutions]
    assert (
        "Pass `--aux-config '{\"enable_experts\": false}'` (with the rest of your --aux-config "
        "fields) (so that `self.aux_config.enabled` is false)."
    ) in texts
    assert not any('"enabled"' in t for t in texts)


def test_a_computed_property_is_no_key_of_the_flag(eng: Store) -> None:
    page = page_with_message(eng, "eng", "some aux output requires the V2 runner")
    texts = [s.text for s in page.solutions]
    assert any("ENG_USE_V2" in t for t in texts)
    assert not any('any_enabled"' in t for t in texts)
    assert not any("--aux-config '" in t for t in texts)
