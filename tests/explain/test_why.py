"""Why the check is there, in the code's own words: besides the comments next to it and
its function's docstring, the docstring of the config field behind a flag, the comment
above an environment variable's read, the comment on a constant it tests, and the message
the code logs where a setting takes effect. Read at index time; the page parses nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.extract import extract_file
from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/envs.py": """
        import os

        environment_variables = {
            # ================== Runtime ==================
            # Use the V2 runner, which replays
            # sampled traces.
            "ENG_USE_V2": lambda: bool(int(os.getenv("ENG_USE_V2", "0"))),
        }


        def __getattr__(name):
            return environment_variables[name]()
        """,
    "eng/args.py": """
        from dataclasses import dataclass


        from eng.config import ModelConfig


        @dataclass
        class EngineArgs:
            enforce_eager: bool = False
            num_workers: int = ModelConfig.num_workers

            def check_workers(self):
                if self.num_workers > 8:
                    raise ValueError("too many workers")
        """,
    "eng/config.py": """
        import logging
        from dataclasses import dataclass

        from eng import envs

        logger = logging.getLogger(__name__)

        # Architectures whose kernels only the V2 runner has.
        V2_ONLY = ("Deep4",)


        @dataclass
        class ModelConfig:
            enforce_eager: bool = False
            \"\"\"Whether to always run eagerly. If True, no graphs are captured.

            A second paragraph the page leaves out.\"\"\"
            num_workers: int = 1
            \"\"\"Processes that run the model.\"\"\"


        @dataclass
        class DraftConfig:
            num_workers: int = 1
            \"\"\"Processes that run the draft model.\"\"\"


        class EngineConfig:
            def __post_init__(self):
                if self.model_config.enforce_eager:
                    self.compile_config.graph_mode = GraphMode.NONE
                    logger.info("Eager mode is the same as setting graph_mode=none")

            def check_eager(self):
                if self.model_config.enforce_eager:
                    raise ValueError("tracing does not work in eager mode")

            def check_runner(self):
                if not envs.ENG_USE_V2:
                    raise ValueError("replay requires the V2 runner")

            def check_arch(self, arch):
                if arch in V2_ONLY:
                    raise ValueError("this architecture needs the V2 runner")

            def check_items(self, items):
                # An item of the wrong kind means a loader bug: name it rather than skip.
                for item in items:
                    if isinstance(item, bytes):
                        raise TypeError("raw bytes reached the loader")

            def check_graphs(self):
                if self.compile_config.graph_mode != GraphMode.NONE:
                    raise ValueError("profiling needs graphs off")


        class Runner:
            def __init__(self, model_config):
                self.model_config = model_config

            def warm_up(self, n):
                if self.model_config.enforce_eager and self.model_config.num_workers > 1:
                    self.dummy_run(n)

            def dummy_run(self, n):
                \"\"\"Run a dummy pass to warm up.\"\"\"
                counts = [1] * n
                assert sum(counts) == n, "the split lost tokens"
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def why(store: Store, message: str) -> str:
    meaning = page_with_message(store, "eng", message).what_it_means
    assert "In the code's own words: " in meaning, meaning
    return meaning.split("In the code's own words: ", 1)[1]


def test_the_docstring_of_the_config_field_behind_a_flag(eng: Store) -> None:
    assert (
        "of `--enforce-eager`: “Whether to always run eagerly. If True, no graphs are "
        "captured.”" in why(eng, "tracing does not work")
    )


def test_a_generated_flags_field_is_documented_where_its_default_is(eng: Store) -> None:
    assert "of `--num-workers`: “Processes that run the model.”" in why(eng, "too many workers")


def test_the_comment_above_an_environment_variables_read(eng: Store) -> None:
    assert "of `ENG_USE_V2`: “Use the V2 runner, which replays sampled traces.”" in why(
        eng, "replay requires the V2 runner"
    )


def test_the_comment_on_a_constant_the_check_tests(eng: Store) -> None:
    assert "of `V2_ONLY`: “Architectures whose kernels only the V2 runner has.”" in why(
        eng, "this architecture needs"
    )


def test_the_comment_above_the_loop_the_check_is_in(eng: Store) -> None:
    assert "“An item of the wrong kind means a loader bug: name it rather than skip.”" in why(
        eng, "raw bytes reached"
    )


def test_the_message_logged_where_a_setting_takes_effect(eng: Store) -> None:
    assert (
        "where `--enforce-eager` takes effect, the code logs “Eager mode is the same as "
        "setting graph_mode=none”" in why(eng, "profiling needs graphs off")
    )


def test_no_setting_only_a_callers_guard_reads(eng: Store) -> None:
    page = page_with_message(eng, "eng", "the split lost tokens")
    assert any(k.name == "--enforce-eager" for k in page.knobs), page.knobs
    said = why(eng, "the split lost tokens")
    assert "“Run a dummy pass to warm up.”" in said
    # no solution turns it either
    assert not page.solutions, page.solutions
    assert "--enforce-eager" not in said, said


def test_docs_are_read_at_extraction_without_rules_or_later_paragraphs() -> None:
    facts = extract_file("eng/config.py", ENG["eng/config.py"].replace("\n        ", "\n").encode())
    assert facts.constant_docs == {"V2_ONLY": "Architectures whose kernels only the V2 runner has."}
    (model,) = [c for c in facts.classes if c.name == "ModelConfig"]
    assert model.field_docs == {
        "enforce_eager": "Whether to always run eagerly. If True, no graphs are captured.",
        "num_workers": "Processes that run the model.",
    }
    envs = extract_file("eng/envs.py", ENG["eng/envs.py"].replace("\n        ", "\n").encode())
    docs = {r.doc for r in envs.env_reads if r.doc}
    assert docs == {"Use the V2 runner, which replays sampled traces."}
