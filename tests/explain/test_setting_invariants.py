"""A setting is no way out of a check the code keeps with itself: where the object's own
constructor requires the attribute the setting sets to hold one value (any other fails
there first), and where an assertion ties the setting's value to what the function is
handed by the package's own caller (a tensor's shape, a count the runner passes). A
setting the constructor leaves free, or an assertion of a constructor's own arguments (the
model's shape, which the setting must fit), keeps its way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

KEPT = {
    "kept/__init__.py": "",
    "kept/envs.py": """
        import os

        environment_variables = {
            "KEPT_SPEC_TOKENS": lambda: int(os.getenv("KEPT_SPEC_TOKENS", "1")),
            "KEPT_DRAFT_TOKENS": lambda: int(os.getenv("KEPT_DRAFT_TOKENS", "1")),
            "KEPT_TP_SIZE": lambda: int(os.getenv("KEPT_TP_SIZE", "1")),
            "KEPT_MAX_TOKENS": lambda: int(os.getenv("KEPT_MAX_TOKENS", "8")),
        }

        def __getattr__(name):
            return environment_variables[name]()
        """,
    "kept/proposers.py": """
        from kept import envs


        class HiddenStates:
            def __init__(self, heads):
                self.k = envs.KEPT_SPEC_TOKENS
                assert self.k == 1, "hidden states take one token"
                self.heads = heads

            def propose(self):
                if self.k != len(self.heads):
                    raise ValueError("the token count does not match the heads")


        class Drafts:
            def __init__(self, heads):
                self.k = envs.KEPT_DRAFT_TOKENS
                assert self.k >= 1, "at least one draft token"
                self.heads = heads

            def propose(self):
                if self.k != len(self.heads):
                    raise ValueError("the draft count does not match the heads")
        """,
    "kept/layers/bench.py": """
        import argparse

        from kept import envs


        def main(args):
            assert envs.KEPT_TP_SIZE <= args.world, "the TP size exceeds the world"


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--world", type=int, default=1)
            main(parser.parse_args())
        """,
    "kept/layers/__init__.py": "",
    "kept/layers/moe/runners.py": """
        from kept import envs


        class Runner:
            def __init__(self):
                self.max_tokens = envs.KEPT_MAX_TOKENS

            def warm(self, num_tokens):
                assert num_tokens <= self.max_tokens, "the warm-up batch is too large"
                return num_tokens

            def step(self, num_tokens):
                assert num_tokens <= self.max_tokens, "the step batch is too large"
                return num_tokens
        """,
    "kept/layers/moe/worker.py": """
        class Worker:
            def __init__(self, runner, app_config):
                self.runner = runner
                self.app_config = app_config

            def warm_up(self):
                sizes = self.app_config.warm_sizes
                for size in sorted(sizes, reverse=True):
                    self.runner.warm(size)

            def run(self, batch):
                if batch is None:
                    raise ValueError("no batch to run")
                self.runner.step(batch.num_tokens)
        """,
    "kept/layers/moe/__init__.py": "",
    "kept/layers/moe/capture.py": """
        from kept import envs


        class Capturer:
            def __init__(self, num_kv_heads):
                self.tp_size = envs.KEPT_TP_SIZE
                assert num_kv_heads % self.tp_size == 0, "the KV heads do not split"

            def restore(self, ids, num_local):
                n = ids.shape[0]
                if n == num_local // self.tp_size:
                    return ids
                raise AssertionError(f"unexpected batch dim {n}")

            def checked(self, ids, num_local):
                n = ids.shape[0]
                if n == num_local // self.tp_size:
                    return ids
                raise ValueError(f"the batch dim {n} does not split")
        """,
}


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kept"), "kept", KEPT)


def _texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "kept", message).solutions]


def test_a_setting_the_constructor_pins_to_one_value_is_no_way_out(kept: Store) -> None:
    page = page_with_message(kept, "kept", "the token count does not match the heads")
    assert not any("KEPT_SPEC_TOKENS" in s.text for s in page.solutions), page.solutions
    assert "Changing `self.k` through `" in page.what_it_means
    assert "requires it to be `1` (line" in page.what_it_means


def test_a_setting_the_constructor_leaves_free_stays_a_way_out(kept: Store) -> None:
    found = _texts(kept, "the draft count does not match the heads")
    assert any("KEPT_DRAFT_TOKENS" in t for t in found), found


def test_a_setting_tied_to_what_the_function_is_handed_is_no_way_out(kept: Store) -> None:
    page = page_with_message(kept, "kept", "unexpected batch dim")
    assert not any("KEPT_TP_SIZE" in s.text for s in page.solutions), page.solutions
    assert "the assertion is the code's own invariant" in page.what_it_means


def test_a_setting_another_setting_hands_the_function_stays_a_way_out(kept: Store) -> None:
    # the worker hands `warm` each size of a config's list, through another object: a
    # size above the setting reaches the assertion, and raising the setting is the way out
    page = page_with_message(kept, "kept", "the warm-up batch is too large")
    assert any("KEPT_MAX_TOKENS" in s.text for s in page.solutions), page.solutions
    assert "the assertion is the code's own invariant" not in page.what_it_means


def test_a_setting_tied_to_a_count_the_caller_makes_is_no_way_out(kept: Store) -> None:
    page = page_with_message(kept, "kept", "the step batch is too large")
    assert not any("KEPT_MAX_TOKENS" in s.text for s in page.solutions), page.solutions
    assert "the assertion is the code's own invariant" in page.what_it_means


def test_a_raise_of_another_class_keeps_the_setting(kept: Store) -> None:
    found = _texts(kept, "the batch dim")
    assert any("KEPT_TP_SIZE" in t for t in found), found


def test_an_assertion_of_the_constructors_arguments_keeps_the_setting(kept: Store) -> None:
    found = _texts(kept, "the KV heads do not split")
    assert any("KEPT_TP_SIZE" in t for t in found), found


def test_a_setting_tied_to_an_argument_a_setting_gives_stays_a_way_out(kept: Store) -> None:
    # `main` is handed the command line: both sides are the user's to set
    found = _texts(kept, "the TP size exceeds the world")
    assert any("KEPT_TP_SIZE" in t for t in found), found
