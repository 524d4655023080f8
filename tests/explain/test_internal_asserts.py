"""An `assert` on the program's own state (no setting decides what it tests) has no way out
through a setting that only makes its function return early (a mode that skips the work) or
keeps a caller from calling it: that mode changes what the program does, and the invariant
the program broke stays broken. A setting the assert itself tests is still one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.store import Store

RUN = {
    "run/__init__.py": "",
    "run/envs.py": """
        import os

        environment_variables = {
            "RUN_ENCODER_ONLY": lambda: bool(int(os.getenv("RUN_ENCODER_ONLY", "0"))),
            "RUN_BLOCK_SIZE": lambda: int(os.getenv("RUN_BLOCK_SIZE", "16")),
            "RUN_PACK": lambda: os.getenv("RUN_PACK", "span"),
        }

        def __getattr__(name):
            return environment_variables[name]()
        """,
    "run/runner.py": """
        from run import envs


        class Runner:
            def dummy_run(self, num_tokens, counts):
                # the dummy run only covers the language model: skip it
                if envs.RUN_ENCODER_ONLY:
                    return
                assert sum(counts) == num_tokens, "the dummy batch does not add up"

            def blocks(self, num_tokens):
                if envs.RUN_ENCODER_ONLY:
                    return
                assert envs.RUN_BLOCK_SIZE % 16 == 0, "the block size is no multiple of 16"

            def place(self, world_size, per_node):
                if envs.RUN_PACK == "fill":
                    return [per_node]
                else:
                    assert world_size % per_node == 0, "world size is no multiple of a node"
                    return [per_node] * (world_size // per_node)
        """,
    "run/platform.py": """
        from run import envs


        def cpu_plugin():
            is_cpu = envs.RUN_PACK == "cpu"
            if not is_cpu:
                return None
            return "run.cpu.Platform"


        def resolve():
            if envs.RUN_PACK == "cpu":
                name = cpu_plugin()
                assert name is not None
                return name
            return "run.gpu.Platform"


        def rope(config, skip):
            if envs.RUN_PACK == "cpu":
                params = getattr(config, "rope_parameters", None)
                assert params is not None
                return params
            return None


        def checked(per_node):
            if envs.RUN_PACK == "cpu":
                count = len(per_node)
                assert count
                return count
            return 0
        """,
}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("run"), "run", RUN)


def test_a_mode_that_returns_early_is_no_way_out_of_an_internal_assert(run: Store) -> None:
    page = page_with_message(run, "run", "the dummy batch does not add up")
    assert not any("RUN_ENCODER_ONLY" in s.text for s in page.solutions)


def test_the_setting_an_assert_tests_is_a_way_out(run: Store) -> None:
    page = page_with_message(run, "run", "the block size is no multiple of 16")
    assert any("RUN_BLOCK_SIZE" in s.text for s in page.solutions)


def test_a_setting_that_picks_the_branch_the_assert_is_in_stays(run: Store) -> None:
    # the other branch is other code, as another backend is: not a mode that skips the work
    page = page_with_message(run, "run", "world size is no multiple of a node")
    assert any("RUN_PACK" in s.text for s in page.solutions)


def test_a_mode_that_returns_early_draws_no_example_fix_either(run: Store) -> None:
    # the fix shows the first solution's change: none is offered, so none is drawn
    page = page_with_message(run, "run", "the dummy batch does not add up")
    assert page.example_fix is None


def test_an_assert_of_what_a_call_just_returned_takes_no_guard_around_it(run: Store) -> None:
    # `name = cpu_plugin(); assert name is not None` checks the helper's own promise on
    # the path the user chose: another `RUN_PACK` would undo that choice, no way out
    page = page_in_function(run, "run", "resolve")
    assert page.solutions == []
    assert page.example_fix is None
    assert "the call just before it returned a value" in page.what_it_means


def test_an_assert_of_a_truth_value_keeps_its_guards(run: Store) -> None:
    # `count = len(per_node); assert count` tests the input's size, not a promise that a
    # value came back (`is not None`): the branch the assert is in stays a way out
    page = page_in_function(run, "run", "checked")
    assert any("RUN_PACK" in s.text for s in page.solutions)


def test_an_assert_of_a_lookup_with_a_default_is_no_promise_of_the_program(run: Store) -> None:
    # `getattr(config, "rope_parameters", None)` reads the user's config: a way out stays
    page = page_in_function(run, "run", "rope")
    assert "the call just before it returned a value" not in page.what_it_means
