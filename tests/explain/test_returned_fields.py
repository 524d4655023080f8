"""A method of a JSON-valued flag's object that returns an expression on its fields: the
field of the flag's JSON decides the check, before leaving the whole flag out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

SPEC = {
    "spec/__init__.py": "",
    "spec/config/__init__.py": "",
    "spec/config/speculative.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            method: str = "ngram"
            tokens_per_batch: dict | None = None

            def uses_dynamic(self) -> bool:
                \"\"\"Whether the number of tokens depends on the batch size.\"\"\"
                return self.tokens_per_batch is not None

            @property
            def is_dynamic(self) -> bool:
                return self.tokens_per_batch is not None

            @property
            def is_batched(self) -> bool:
                return self.is_dynamic and self.method == "ngram"

            def uses_helper(self) -> bool:
                return helper(self.tokens_per_batch)

            def __post_init__(self):
                if self.method not in ("ngram", "eagle"):
                    raise ValueError(f"unknown method {self.method}")
        """,
    "spec/config/engine.py": """
        import logging
        from dataclasses import dataclass

        from .speculative import SpecConfig

        logger = logging.getLogger(__name__)


        @dataclass
        class EngineConfig:
            spec_config: SpecConfig | None = None

            def check_dynamic(self):
                spec_config = self.spec_config
                if spec_config is not None and spec_config.uses_dynamic():
                    logger.warning("dynamic speculation is not supported here; falling back")

            def check_property(self):
                spec_config = self.spec_config
                if spec_config is not None and spec_config.is_dynamic:
                    logger.warning("the dynamic property is not supported here")

            def check_batched(self):
                spec_config = self.spec_config
                if spec_config is not None and spec_config.is_batched:
                    logger.warning("batched speculation is not supported here")

            def check_helper(self):
                spec_config = self.spec_config
                if spec_config is not None and spec_config.uses_helper():
                    logger.warning("the helper says no")
        """,
    "spec/args.py": """
        from dataclasses import dataclass
        from typing import Any


        @dataclass
        class EngineArgs:
            spec_config: dict[str, Any] | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--spec-config", type=json.loads, default=None)
                return parser
        """,
}


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("spec"), "spec", SPEC)


def test_the_field_a_method_returns_comes_before_leaving_the_flag_out(spec: Store) -> None:
    page = page_with_message(spec, "spec", "dynamic speculation")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Pass `--spec-config '{\"tokens_per_batch\": null}'`")
    assert any(t.startswith("Do not pass `--spec-config`") for t in texts[1:])
    assert page.solutions[0].knob == "--spec-config"


def test_a_property_is_read_as_a_method_is(spec: Store) -> None:
    page = page_with_message(spec, "spec", "the dynamic property")
    assert page.solutions[0].text.startswith("Pass `--spec-config '{\"tokens_per_batch\": null}'`")


def test_a_property_built_on_another_is_no_key_of_the_json(spec: Store) -> None:
    # `is_dynamic` is a property, not a field: `{"is_dynamic": false}` is refused
    page = page_with_message(spec, "spec", "batched speculation")
    assert not any('"is_dynamic"' in s.text for s in page.solutions)


def test_a_method_that_calls_out_is_not_followed(spec: Store) -> None:
    page = page_with_message(spec, "spec", "the helper says no")
    assert not any("tokens_per_batch" in s.text for s in page.solutions)
