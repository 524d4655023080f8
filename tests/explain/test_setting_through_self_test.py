"""A setting that decides an attribute the function sets to a test of it, then checks:
`self.native = backend in NATIVE` after `backend = config.kernel_config.moe_backend`,
then `if self.native and ...: raise`. The way out is the setting with the value that makes
the test false, by the plain flag that writes the field."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class KernelConfig:
            moe_backend: str = "auto"
            \"\"\"The MoE backend.\"\"\"
            block: int = 1
        """,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            moe_backend: str = "auto"
            kernel_config: dict | None = None
            block: int = 1

            def add_cli_args(parser):
                parser.add_argument("--moe-backend", type=str)
                parser.add_argument("--kernel-config", type=str)
                parser.add_argument("--block", type=int)

            def create_engine_config(self):
                kernel_config = KernelConfig(**(self.kernel_config or {}))
                if self.moe_backend:
                    kernel_config.moe_backend = self.moe_backend
        """,
    "eng/model.py": """
        NATIVE = ("mega",)


        class MoE:
            def __init__(self, vllm_config, hidden, scoring="soft"):
                moe_backend = vllm_config.kernel_config.moe_backend
                self.native = moe_backend in NATIVE
                self.hidden = hidden
                self.scoring = scoring
                self.even = hidden % 2 == 0
                if self.native and self.scoring != "soft":
                    raise NotImplementedError("native MoE supports soft scoring only")
                if not self.even:
                    raise ValueError("hidden size must be even")


        class Draft:
            def __init__(self, vllm_config, model):
                inferred = model.infer()
                self.is_draft = inferred == "draft"
                backend = vllm_config.kernel_config.moe_backend
                self.same = backend == model.backend
                if self.is_draft and model.size > 1:
                    raise ValueError("a draft model must be small")
                if self.same and model.size > 2:
                    raise ValueError("the same backend needs a small model")


        def plain(vllm_config, scoring):
            moe_backend = vllm_config.kernel_config.moe_backend
            native = moe_backend in NATIVE
            if native and scoring != "soft":
                raise NotImplementedError("plain native MoE supports soft scoring only")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", FILES)


def _site(eng: Store, message: str):  # type: ignore[no-untyped-def]
    (site,) = [
        s
        for s in eng.list_sites("eng")
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return site


def test_the_setting_behind_an_attribute_set_to_a_comparison_gets_its_value(eng: Store) -> None:
    page = page_with_message(eng, "eng", "native MoE supports soft")
    # the plain flag that writes the field, never a bare value for `--kernel-config`
    assert page.solutions[0].text.startswith("Pass `--moe-backend` with a value outside ['mega']")
    assert not any("--kernel-config" in s.text for s in page.solutions)
    # the attribute is no argument: the constructor's `vllm_config` is not offered through it
    assert not any("`vllm_config` of" in s.text for s in page.solutions)


def test_an_attribute_no_setting_decides_is_not_bound(eng: Store) -> None:
    # compared with internal state (a call's result, another object's attribute)
    for message in ("a draft model must be small", "the same backend needs"):
        site = _site(eng, message)
        assert not [b for b in site.site.bindings if b.name.startswith("self.")]
        assert not site.knobs
        page = page_with_message(eng, "eng", message)
        assert not any("--moe-backend" in s.text for s in page.solutions)


def test_an_earlier_exits_attribute_brings_no_setting(eng: Store) -> None:
    # the raise above is passed: `self.native` decides that check, not this one
    site = _site(eng, "hidden size must be even")
    assert not site.site.bindings
    assert not site.knobs
