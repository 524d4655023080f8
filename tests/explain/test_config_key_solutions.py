"""Ways out through a configuration class's own fields, keys of the JSON a flag takes
(`--speculative-config '{"method": ...}'`): a key compared with a literal gets its value, a
key the check computes with is named with what must hold, never `null` (the class fills in
a field left None), never the value of an earlier branch of a chain on the key."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            method: str | None = None
            \"\"\"The speculative method.\"\"\"
            mode: str | None = None
            \"\"\"Filled in from the method when left None.\"\"\"
            rates: list[float] | None = None
            \"\"\"Acceptance rates, non-increasing.\"\"\"
            profiler: str | None = None
            \"\"\"The profiler to run.\"\"\"
            activities: list[str] | None = None
            \"\"\"What the torch profiler records.\"\"\"
            profiler_dir: str = ""
            \"\"\"Where the torch profiler writes.\"\"\"

            def __post_init__(self):
                if self.mode is None:
                    self.mode = "fast"
                if self.method not in (None, "eagle"):
                    raise ValueError("only eagle is left")
                if self.mode is not None and self.mode != "slow":
                    raise ValueError("only the slow mode is left")
                if self.method == "mtp":
                    pass
                elif self.method == "dspark":
                    raise ValueError("dspark needs a target model")
                if self.activities is not None and self.profiler != "torch":
                    raise ValueError("activities are only for the torch profiler")
                if self.profiler == "torch" and not self.profiler_dir:
                    raise ValueError("the torch profiler needs a directory")
                self._check(self.rates)

            @staticmethod
            def _check(rates):
                if rates is not None and any(rates[i] > rates[i - 1] for i in range(1, len(rates))):
                    raise ValueError(f"rates must be non-increasing, got {rates}")
        """,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            spec_config: dict | None = None

            def add_cli_args(parser):
                parser.add_argument("--spec-config", type=str)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_key_compared_with_a_literal_gets_the_value_not_null(eng: Store) -> None:
    page = page_with_message(eng, "eng", "only eagle is left")
    texts = [s.text for s in page.solutions]
    assert any(t.startswith('Pass `--spec-config \'{"method": "eagle"}\'`') for t in texts)
    assert not any("null" in t for t in texts)


def test_a_key_left_none_is_no_way_out(eng: Store) -> None:
    # `mode` left None is filled in as "fast": `null` would not avoid the check
    page = page_with_message(eng, "eng", "only the slow mode is left")
    texts = [s.text for s in page.solutions]
    assert not any("null" in t for t in texts)
    assert 'Pass `--spec-config \'{"mode": "slow"}\'`' in " ".join(texts)


def test_an_earlier_branch_of_a_chain_on_the_key_is_no_way_out(eng: Store) -> None:
    # `method: "mtp"` takes the branch before: other code, no answer to this check
    page = page_with_message(eng, "eng", "dspark needs a target model")
    assert not any('"mtp"' in s.text for s in page.solutions)


def test_a_key_passed_on_and_computed_with_is_named(eng: Store) -> None:
    page = page_with_message(eng, "eng", "rates must be non-increasing")
    texts = [s.text for s in page.solutions]
    assert any(
        t.startswith("Change `rates` in the JSON of `--spec-config` to a value this check accepts")
        for t in texts
    )


def test_a_value_the_function_raises_on_elsewhere_is_no_way_out(eng: Store) -> None:
    # `profiler: "torch"` gets past this check and into the next one
    page = page_with_message(eng, "eng", "activities are only for the torch profiler")
    assert not any('"torch"' in s.text for s in page.solutions)


RENAMED = {
    "eng/__init__.py": "",
    "eng/config.py": """
        import logging
        from dataclasses import dataclass

        logger = logging.getLogger(__name__)


        @dataclass
        class SpecConfig:
            method: str | None = None
            \"\"\"The speculative method.\"\"\"
            steps: int = 1
            \"\"\"Draft steps.\"\"\"

            def __post_init__(self):
                if self.method in ("old_mtp", "older_mtp") and self.method != "mtp":
                    logger.warning("method `%s` is deprecated and replaced with mtp.", self.method)
                    self.method = "mtp"
                if self.method == "mtp" and self.steps > 4:
                    raise ValueError("mtp runs at most 4 steps")
        """,
    "eng/args.py": ENG["eng/args.py"],
}


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("renamed"), "eng", RENAMED)


def test_the_value_a_warning_goes_on_with_is_its_way_out(renamed: Store) -> None:
    # `"mtp"` meets the raise below, but the warning's own branch sets it right after:
    # the program meets that check either way, so giving it at once is the way out
    page = page_with_message(renamed, "eng", "method `")
    assert page.solutions[0].text.startswith('Pass `--spec-config \'{"method": "mtp"}\'`')
