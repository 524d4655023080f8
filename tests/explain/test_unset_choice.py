"""A `bool | None` flag the path holds None (`elif x is None:`): the page names the one of
its two values (`--x` / `--no-x`) that takes no failing branch of the chain, never a
`--x VALUE` the flag pair does not take, nor the value a sibling branch raises on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message
from msgspec.structs import replace

from errdex.explain.fix_forms import setting_fix
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView, Knob
from errdex.facts import ConditionKind, KnobKind
from errdex.store import Store

FILES = {
    "eng/__init__.py": "",
    "eng/config.py": """
        import logging
        from dataclasses import dataclass

        logger = logging.getLogger(__name__)


        @dataclass
        class SchedulerConfig:
            async_mode: bool | None = None
            \"\"\"Run the scheduler ahead of the model; None lets the engine decide.\"\"\"
            split_cache: bool | None = None
            fast_path: bool | None = None
            eager_steps: bool | None = None
            overlap: bool | None = None
            prefetch: bool | None = None
            chunked: bool | None = None


        @dataclass
        class ParallelConfig:
            balance: bool = False
            pin: bool = False
            redundant: int = 0


        class EngineConfig:
            def __post_init__(self):
                if self.scheduler_config.async_mode:
                    if self.uses_dbo:
                        raise ValueError("Async mode does not work with DBO; use --no-async-mode.")
                elif self.scheduler_config.async_mode is None:
                    if self.uses_dbo:
                        logger.warning("Async mode is turned off for DBO.")
                        self.scheduler_config.async_mode = False

            def check_cache(self):
                need_split = self.connector is not None
                if self.scheduler_config.split_cache is None:
                    if need_split:
                        logger.warning("Split cache turned on for the connector.")
                    self.scheduler_config.split_cache = need_split
                elif (
                    self.scheduler_config.split_cache is False
                    and need_split
                ):
                    raise ValueError("Split cache was turned off, but the connector needs it.")

            def check_fast(self):
                if self.scheduler_config.fast_path is None:
                    raise ValueError("Fast path must be decided by now.")

            def check_overlap(self):
                if self.scheduler_config.overlap:
                    if self.pipeline_size > 1:
                        raise ValueError("Overlap does not work with pipeline stages.")
                elif self.scheduler_config.overlap is None:
                    self.scheduler_config.overlap = self.pipeline_size == 1

            def check_prefetch(self):
                if self.scheduler_config.prefetch:
                    if self.cache_size < 10:
                        raise ValueError("Prefetch needs a larger cache.")
                elif self.scheduler_config.prefetch is False and self.remote:
                    raise ValueError("A remote store needs prefetch.")

            def check_chunks(self, supported):
                if self.scheduler_config.chunked is None:
                    self.scheduler_config.chunked = supported
                elif (
                    self.kind == "generate"
                    and not self.scheduler_config.chunked
                    and supported
                ):
                    logger.warning("Turning chunks off may crash this model.")
                elif (
                    self.kind == "pooling"
                    and self.scheduler_config.chunked
                    and not supported
                ):
                    logger.warning("Turning chunks on may crash this model.")

            def check_chunks_again(self, supported):
                if self.scheduler_config.chunked is None:
                    self.scheduler_config.chunked = supported
                elif (
                    self.generating
                    and not self.scheduler_config.chunked
                    and supported
                ):
                    logger.warning("Chunks off again may crash this model.")
                elif (
                    not self.generating
                    and self.scheduler_config.chunked
                    and not supported
                ):
                    logger.warning("Chunks on again may crash this model.")

            def check_balance(self):
                if self.parallel_config.balance:
                    if not self.on_gpu:
                        raise ValueError("Balancing runs on GPUs only.")
                else:
                    if self.parallel_config.redundant != 0:
                        raise ValueError("Redundant copies need balancing.")

            def check_pin(self):
                pinned = self.parallel_config.pin
                if pinned:
                    if not self.on_gpu:
                        raise ValueError("Pinning runs on GPUs only.")
                else:
                    if self.parallel_config.redundant > 2:
                        raise ValueError("Many copies need pinning.")
                if self.parallel_config.pin and self.slow:
                    raise ValueError("Pinning is slow here.")

            def check_eager(self):
                if self.scheduler_config.eager_steps is None:
                    raise ValueError("Eager steps must be given.")
                elif self.scheduler_config.eager_steps:
                    if self.strict:
                        raise ValueError("Eager steps are not supported in strict mode.")
                else:
                    if self.strict:
                        raise ValueError("Lazy steps are not supported in strict mode.")
        """,
    "eng/args.py": """
        import argparse
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            async_mode: bool | None = None
            split_cache: bool | None = None
            fast_path: bool | None = None
            eager_steps: bool | None = None
            overlap: bool | None = None
            prefetch: bool | None = None
            chunked: bool | None = None
            balance: bool = False
            pin: bool = False
            redundant: int = 0

            def add_cli_args(parser):
                parser.add_argument("--async-mode", action=argparse.BooleanOptionalAction)
                parser.add_argument("--split-cache", action=argparse.BooleanOptionalAction)
                parser.add_argument("--fast-path", action=argparse.BooleanOptionalAction)
                parser.add_argument("--eager-steps", action=argparse.BooleanOptionalAction)
                parser.add_argument("--overlap", action=argparse.BooleanOptionalAction)
                parser.add_argument("--prefetch", action=argparse.BooleanOptionalAction)
                parser.add_argument("--chunked", action=argparse.BooleanOptionalAction)
                parser.add_argument("--balance", action="store_true")
                parser.add_argument("--pin", action="store_true")
                parser.add_argument("--redundant", type=int)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", FILES)


def _texts(eng: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(eng, "eng", message).solutions]


def test_the_value_no_sibling_branch_raises_on_is_named(eng: Store) -> None:
    texts = _texts(eng, "Async mode is turned off")
    assert texts[0].startswith("Pass `--no-async-mode` (so that")
    assert "Not `--async-mode`: it takes the branch at line" in texts[0]
    assert not any("VALUE" in t for t in texts)


def _settled(value: bool) -> KnobAction:
    return KnobAction(
        f"Pass `{'--async-mode' if value else '--no-async-mode'}`",
        "--async-mode",
        keyword=repr(value),
        was_unset=True,
        negative=not value,
    )


def test_the_fix_adds_the_negative_form_to_a_command_without_the_flag() -> None:
    knob = Knob(
        name="--async-mode",
        kind=KnobKind.FLAG,
        behind="self.scheduler_config.async_mode",
        value_type="bool | None",
        command="eng serve MODEL",
        call="eng.LLM(model)",
    )
    test = "self.scheduler_config.async_mode is None"
    condition = ConditionView(text=test, test=test, kind=ConditionKind.ELIF, holds=True, line=9)
    fix = setting_fix(_settled(False), condition, [knob])
    assert fix is not None
    assert (fix.before, fix.after) == ("eng serve MODEL", "eng serve MODEL --no-async-mode")
    fix = setting_fix(_settled(True), condition, [knob])
    assert fix is not None
    assert (fix.before, fix.after) == ("eng serve MODEL", "eng serve MODEL --async-mode")
    # the Python call: the keyword was not given before
    fix = setting_fix(_settled(False), condition, [replace(knob, command=None)])
    assert fix is not None
    assert "async_mode" not in fix.before
    assert "async_mode=False" in fix.after


def test_a_sibling_branch_that_may_raise_rules_its_value_out(eng: Store) -> None:
    texts = _texts(eng, "Split cache turned on")
    assert texts[0].startswith("Pass `--split-cache` (so that")
    assert "Not `--no-split-cache`: it may take the branch at line" in texts[0]


def test_either_value_when_no_branch_fails(eng: Store) -> None:
    texts = _texts(eng, "Fast path must be decided")
    assert texts[0].startswith("Pass `--fast-path` or `--no-fast-path` (so that")


def test_no_value_when_every_branch_fails(eng: Store) -> None:
    texts = _texts(eng, "Eager steps must be given")
    assert not any("--eager-steps" in t or "--no-eager-steps" in t for t in texts)


def test_a_flag_to_turn_off_is_given_its_negative_form(eng: Store) -> None:
    texts = _texts(eng, "Overlap does not work")
    assert texts[0].startswith("Pass `--no-overlap` (so that")
    assert not any("Turn `--overlap` off" in t for t in texts)


def test_no_turning_off_into_a_branch_that_may_raise(eng: Store) -> None:
    texts = _texts(eng, "Prefetch needs a larger cache")
    assert not any("--no-prefetch" in t or "Turn `--prefetch` off" in t for t in texts)


def test_a_test_written_below_its_elif_is_read_for_its_siblings(eng: Store) -> None:
    # the test is on the line after `elif (`; off, the flag may take the branch above
    # (`self.generating` decides it), which warns too
    texts = _texts(eng, "Chunks on again may crash")
    assert not any("--no-chunked" in t or "Turn `--chunked` off" in t for t in texts)


def test_a_sibling_the_paths_equality_rules_out_is_not_entered(eng: Store) -> None:
    # the path holds `self.kind == "pooling"`: the sibling testing "generate" is not taken
    texts = _texts(eng, "Turning chunks on may crash")
    assert any(t.startswith("Pass `--no-chunked` (so that") for t in texts)


def test_a_plain_flag_whose_other_branch_may_raise_is_no_way_out(eng: Store) -> None:
    # left out, `--balance` takes the `else` that raises on redundant copies
    texts = _texts(eng, "Balancing runs on GPUs only")
    assert not any("--balance" in t for t in texts)
    # "What it means" says why, and no longer that no setting is behind the flag's test
    means = page_with_message(eng, "eng", "Balancing runs on GPUs only").what_it_means
    assert "Leaving `--balance` out is no sure way out: the branch at line" in means
    assert "`self.parallel_config.balance` is set (not empty, zero or None): errdex" not in means
    # none of the "no solution" texts ("followed none of these conditions to a setting",
    # "worth reporting"): the user's flag decides the check, and the sentence above says how
    assert "So no solution is offered" not in means
    # given, it takes the branch that raises off a GPU
    texts = _texts(eng, "Redundant copies need balancing")
    assert not any("Pass `--balance`" in t for t in texts)


def test_a_plain_flag_the_chain_does_not_test_by_name_is_kept(eng: Store) -> None:
    # the `if` tests a local standing for the flag: the chain says nothing of its value
    texts = _texts(eng, "Pinning is slow here")
    assert any(t.startswith("Do not pass `--pin`") for t in texts)
