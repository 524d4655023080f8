"""A flag taking a JSON object of a configuration class's fields: a key of that JSON is a
field, never a property or method of the class (the class forbids other keys). A property
that returns a field as is leads to that field; any other gives no way out through the flag."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.fix_forms import command_fix
from errdex.explain.page import Knob
from errdex.facts import KnobKind
from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/envs.py": """
        import os

        ENG_USE_V2 = os.getenv("ENG_USE_V2")
        """,
    "eng/config.py": """
        from dataclasses import dataclass, field

        from eng import envs


        @dataclass
        class AuxConfig:
            enable_experts: bool = False
            enable_logits: bool = False
            # the aux outputs a request may name
            names: list[str] = field(default_factory=list)
            # the aux outputs built so far, by name
            registry: dict[str, object] = field(default_factory=dict, init=False)

            @property
            def enabled(self) -> bool:
                return self.enable_experts

            @property
            def armed(self) -> bool:
                return self._armed

            @property
            def any_enabled(self) -> bool:
                return self.enable_experts or self.enable_logits


        class EngineConfig:
            def check_aux(self):
                if not self.aux_config.enabled:
                    return
                if not envs.ENG_USE_V2:
                    raise ValueError("aux outputs require the V2 runner")

            def check_armed(self):
                if self.aux_config.armed and not envs.ENG_USE_V2:
                    raise ValueError("an armed aux output requires the V2 runner")

            def register(self, name):
                if name in self.aux_config.registry:
                    raise ValueError("an aux output of that name is built already")

            def check_name(self, name):
                if name not in self.aux_config.names:
                    raise ValueError("no aux output of that name is allowed")

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


def test_a_private_field_a_property_returns_is_no_key_of_the_flag(eng: Store) -> None:
    # `_armed` is the class's own state (vllm's ReasoningConfig._enabled): no JSON key
    page = page_with_message(eng, "eng", "an armed aux output")
    assert not any('"_armed"' in s.text for s in page.solutions)


def test_a_computed_property_is_no_key_of_the_flag(eng: Store) -> None:
    page = page_with_message(eng, "eng", "some aux output requires the V2 runner")
    texts = [s.text for s in page.solutions]
    assert any("ENG_USE_V2" in t for t in texts)
    assert not any('any_enabled"' in t for t in texts)
    assert not any("--aux-config '" in t for t in texts)


def test_a_field_the_constructor_does_not_take_is_no_key_of_the_flag(eng: Store) -> None:
    # `registry` is `field(init=False)`: the program fills it in, no JSON of the flag sets it
    page = page_with_message(eng, "eng", "an aux output of that name is built already")
    assert not any("--aux-config" in s.text for s in page.solutions), page.solutions
    assert not any("--aux-config" in w.of for w in page.why), page.why


def test_a_field_the_constructor_takes_stays_the_flags(eng: Store) -> None:
    page = page_with_message(eng, "eng", "no aux output of that name is allowed")
    assert any("--aux-config" in s.text for s in page.solutions), page.solutions


OVERRIDDEN = {
    **ENG,
    "eng/args.py": """
        from dataclasses import dataclass, field

        from eng.config import AuxConfig


        @dataclass
        class EngineArgs:
            aux_config: AuxConfig = field(default_factory=AuxConfig)
            enable_experts: bool = False

            def __post_init__(self):
                if self.enable_experts:
                    self.aux_config.enable_experts = True
        """,
}


@pytest.fixture(scope="module")
def overridden(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("overridden"), "eng", OVERRIDDEN)


def test_a_plain_flag_that_writes_the_field_back_is_to_be_left_out(overridden: Store) -> None:
    # `--enable-experts` sets the field back to True whatever the JSON says: the JSON alone
    # is no way out for one who gives that flag
    page = page_with_message(overridden, "eng", "aux outputs require the V2 runner")
    (json_way,) = [s.text for s in page.solutions if "--aux-config '" in s.text]
    assert json_way.startswith(
        "Pass `--aux-config '{\"enable_experts\": false}'` (with the rest of your --aux-config "
        "fields), and leave `--enable-experts` out: given, it sets `enable_experts` to `True` "
        "whatever the JSON says (eng/args.py:"
    )


def test_the_command_line_before_gives_the_plain_flag_that_writes_the_field_back() -> None:
    knob = Knob(
        name="--aux-config",
        kind=KnobKind.FLAG,
        command="eng serve MODEL",
        json_set_by=(("enable_experts", "--enable-experts", "True", "eng/args.py:12"),),
        key_defaults=(("enable_experts", "False"),),
    )
    fix = command_fix(knob, "{'enable_experts': False}", "note.")
    assert fix is not None
    assert fix.before == (
        "eng serve MODEL --aux-config '{\"enable_experts\": true}' --enable-experts"
    )
    assert fix.after == "eng serve MODEL --aux-config '{\"enable_experts\": false}'"
    # a flag that writes the value the JSON gives anyway is no matter
    same = command_fix(knob, "{'enable_experts': True}", "note.")
    assert same is not None and "--enable-experts" not in same.before
