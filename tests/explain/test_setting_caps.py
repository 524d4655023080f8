"""A limit raised past a guard: where the page says to raise a setting past a count, and
another raise of the version refuses the setting's value above a bound unless a setting of
its own says otherwise, the page names that raise and the setting that lets the value past."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

SERVE = {
    "serve/__init__.py": "",
    "serve/envs.py": """
        import os

        environment_variables = {
            "ALLOW_LONG_MAX_MODEL_LEN": lambda: bool(
                int(os.getenv("ALLOW_LONG_MAX_MODEL_LEN", "0"))
            ),
        }

        def __getattr__(name):
            return environment_variables[name]()
        """,
    "serve/args.py": """
        from dataclasses import dataclass


        @dataclass
        class ModelConfig:
            max_model_len: int = 4096


        @dataclass
        class SchedulerConfig:
            max_num_seqs: int = 128


        @dataclass
        class EngineArgs:
            max_model_len: int = ModelConfig.max_model_len
            max_num_seqs: int = SchedulerConfig.max_num_seqs
        """,
    "serve/verify.py": """
        import logging

        from serve import envs

        logger = logging.getLogger(__name__)


        def get_and_verify_max_len(max_model_len, derived_max_model_len):
            if max_model_len > derived_max_model_len:
                msg = (
                    f"User-specified max_model_len ({max_model_len}) is greater than the "
                    f"derived max_model_len ({derived_max_model_len})."
                )
                warning = "Positions past the derived length give NaNs."
                if envs.ALLOW_LONG_MAX_MODEL_LEN:
                    logger.warning("%s %s", msg, warning)
                else:
                    raise ValueError(f"{msg} Set ALLOW_LONG_MAX_MODEL_LEN=1 to allow it. {warning}")
            return max_model_len


        def verify_num_seqs(max_num_seqs, ceiling):
            if max_num_seqs > ceiling:
                raise ValueError(f"max_num_seqs ({max_num_seqs}) is above {ceiling}")
        """,
    "serve/strategies.py": """
        class Reader:
            def __init__(self, vllm_config):
                self.max_model_len = vllm_config.model_config.max_model_len
                self.max_seqs = vllm_config.scheduler_config.max_num_seqs

            def admit(self, prompt_ids):
                if len(prompt_ids) > self.max_model_len:
                    raise ValueError(f"the prompt is longer than allowed: {len(prompt_ids)}")

            def take(self, seqs):
                if len(seqs) > self.max_seqs:
                    raise ValueError(f"too many sequences: {len(seqs)}")
        """,
}


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("capped")
    yield from indexed_package(root, "serve", SERVE)


def test_the_next_guard_and_its_setting_are_named(capped: Store) -> None:
    (first, *_) = page_with_message(capped, "serve", "the prompt is longer").solutions
    assert first.text.startswith("Pass `--max-model-len` with a value at least `len(prompt_ids)`")
    assert first.text.endswith(
        "A value above `derived_max_model_len` raises another error (“User-specified "
        "max_model_len (MAX_MODEL_LEN) is greater than the derived max_model_len "
        "(DERIVED_MAX_MODEL_LEN).”) in `get_and_verify_max_len` (serve/verify.py:19), "
        "unless you also set `ALLOW_LONG_MAX_MODEL_LEN=1`. With that set, "
        "`get_and_verify_max_len` (serve/verify.py:17) logs a warning instead: “Positions "
        "past the derived length give NaNs.”"
    ), first.text


def test_a_guard_no_setting_lets_past_is_not_named(capped: Store) -> None:
    (first, *_) = page_with_message(capped, "serve", "too many sequences").solutions
    assert first.text.startswith("Pass `--max-num-seqs` with a value at least `len(seqs)`")
    assert "another error" not in first.text


def test_a_log_of_the_refusals_own_message_is_no_warning(tmp_path: Path) -> None:
    files = dict(SERVE)
    files["serve/verify.py"] = files["serve/verify.py"].replace(
        'logger.warning("%s %s", msg, warning)',
        'logger.warning(f"{msg} Set ALLOW_LONG_MAX_MODEL_LEN=1 to allow it. {warning}")',
    )
    for store in indexed_package(tmp_path, "serve", files):
        (first, *_) = page_with_message(store, "serve", "the prompt is longer").solutions
        assert first.text.endswith("unless you also set `ALLOW_LONG_MAX_MODEL_LEN=1`."), first.text


def test_the_override_a_page_offers_comes_with_its_warning(tmp_path: Path) -> None:
    files = dict(SERVE)
    files["serve/window.py"] = """
        import logging

        from serve import envs

        logger = logging.getLogger(__name__)


        def check_window(length, limit):
            if length > limit:
                if envs.ALLOW_LONG_MAX_MODEL_LEN:
                    logger.warning("Reads past the limit may run off the buffer.")
                else:
                    raise ValueError(f"window {length} is above {limit}")
            logger.debug("window %s ok", length)


        def check_depth(depth):
            if envs.ALLOW_LONG_MAX_MODEL_LEN:
                if depth > 3:
                    logger.warning("Deep stacks are slow.")
            else:
                raise ValueError(f"depth {depth} needs the long mode")
        """
    for store in indexed_package(tmp_path, "serve", files):
        (first, *_) = page_with_message(store, "serve", "window").solutions
        assert first.text.startswith("Set `ALLOW_LONG_MAX_MODEL_LEN=1`"), first.text
        assert first.text.endswith(
            " With that set, `check_window` (serve/window.py:12) logs a warning instead: "
            "“Reads past the limit may run off the buffer.”"
        ), first.text
        # a warning further on, under a test of its own, is not where the setting acts
        (first, *_) = page_with_message(store, "serve", "depth ").solutions
        assert first.text.startswith("Set `ALLOW_LONG_MAX_MODEL_LEN=1`"), first.text
        assert "warning" not in first.text, first.text
