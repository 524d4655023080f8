"""A method of a JSON-valued flag's object that returns an expression on its fields: the
field of the flag's JSON decides the check, before leaving the whole flag out."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, cast

import pytest
from explain_samples import indexed_package, page_with_message
from text_facts import text_facts

from errdex.explain import parse_cache, returned_fields
from errdex.extract.module import top_starts
from errdex.store import Store
from errdex.store.base import StoredSite

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


RUNNER = textwrap.dedent(
    """\
    from .speculative import SpecConfig


    class Runner:
        def __init__(self, engine):
            self.spec_config = engine.spec_config
            self.table = {"spec_config": 1}

        def check(self):
            if self.spec_config: pass
            if self.spec_config.uses_dynamic(): pass
    """
)


def _receiver_class(
    text: str, member: str = "uses_dynamic", imported: str | None = None
) -> tuple[ast.ClassDef | None, list[str]]:
    """The class `Runner.check`'s `self.spec_config` is declared as (the imported file's
    text `imported`), and the sources parsed to find it."""
    parse_cache.clear()
    parsed: list[str] = []
    site = SimpleNamespace(function="Runner.check")
    stored = cast(StoredSite, SimpleNamespace(site=site, file="pkg/run.py", version_id=1))
    # `spec/speculative.py`, which `from .speculative import SpecConfig` reads
    outline = top_starts(ast.parse(imported)) if imported is not None else None
    store = cast(
        Store, SimpleNamespace(file_text=lambda *_: imported, file_outline=lambda *_: outline)
    )
    facts = text_facts(text)
    facts.stored = stored
    real = ast.parse

    def counted(source: str, *args: Any, **kwargs: Any) -> ast.Module:
        parsed.append(source)
        return real(source, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ast, "parse", counted)
        found = returned_fields._receiver_class(
            store, stored, facts, "self.spec_config", member, {}
        )
    return found, parsed


def test_a_class_that_never_declares_the_attribute_is_not_parsed() -> None:
    # `self.spec_config` is assigned and tested, and a key of that name is written: no
    # `spec_config: X` in the class's lines
    found, parsed = _receiver_class(RUNNER)
    assert found is None
    assert not any("class Runner" in source for source in parsed)


@pytest.mark.parametrize(
    "declared",
    [
        "spec_config: SpecConfig | None = None",
        "spec_config : SpecConfig",
        "(spec_config): SpecConfig",
        "spec_config \\\n        : SpecConfig",
    ],
)
def test_a_class_that_may_declare_the_attribute_is_parsed(declared: str) -> None:
    text = RUNNER.replace("class Runner:\n", f"class Runner:\n    {declared}\n\n")
    _, parsed = _receiver_class(text)
    assert any("class Runner" in source for source in parsed)


@pytest.mark.parametrize(
    "text",
    [
        # the parser reads `ｓpec_config` as `spec_config`
        RUNNER.replace("class Runner:\n", "class Runner:\n    ｓpec_config: SpecConfig\n\n"),
        # defined twice: the second one may declare it
        RUNNER + "\n\nclass Runner:\n    spec_config: SpecConfig\n",
    ],
)
def test_a_declaration_the_first_class_s_ascii_text_may_hide_is_looked_for(text: str) -> None:
    _, parsed = _receiver_class(text)
    assert any("class Runner" in source for source in parsed)


SPEC_FILE = textwrap.dedent(SPEC["spec/config/speculative.py"])


def test_the_object_s_class_is_parsed_only_when_its_file_defines_the_member() -> None:
    text = RUNNER.replace("class Runner:\n", "class Runner:\n    spec_config: SpecConfig\n\n")
    found, parsed = _receiver_class(text, "uses_dynamic", SPEC_FILE)
    assert found is not None and found.name == "SpecConfig"
    assert any("class SpecConfig" in source for source in parsed)
    # a field of the class, no method or property: nothing to read in the class
    found, parsed = _receiver_class(text, "tokens_per_batch", SPEC_FILE)
    assert found is None
    assert not any("class SpecConfig" in source for source in parsed)
