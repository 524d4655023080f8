"""A setting compared with a name that holds a literal (a local set, a module constant)
gets that value as its way out, not only "change the flag"; an early exit's value (a
special case the function handles first) does not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message
from test_config_key_solutions import ENG

from errdex.store import Store

FILES = {
    "bench/__init__.py": "",
    "bench/cli.py": """
        import argparse

        MODES = ("fast", "slow")
        SPECIAL = "internal"


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--backend")
            parser.add_argument("--mode")
            parser.add_argument("--route")
            args = parser.parse_args()
            valid_backends = {"vllm", "hf"}
            if args.backend not in valid_backends:
                raise ValueError(f"unsupported backend: {args.backend}")
            if args.mode not in MODES:
                raise ValueError(f"unsupported mode: {args.mode}")
            if args.route == SPECIAL:
                return
            if args.route.startswith("x"):
                raise ValueError("no x routes")
        """,
    "bench/config.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            method: str | None = None
            \"\"\"The speculative method.\"\"\"
        """,
    # `--spec-config`, a flag whose value is a JSON object
    "bench/args.py": ENG["eng/args.py"],
    "bench/spec.py": """
        ALLOWED = ("eagle", "mtp")


        def check(vllm_config):
            method = vllm_config.spec_config.method
            if method not in ALLOWED:
                raise ValueError(f"unsupported method {method}")
        """,
}


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("bench"), "bench", FILES)


@pytest.mark.parametrize(
    ("message", "first"),
    [
        # a local set
        ("unsupported backend", "Pass `--backend` with one of {'vllm', 'hf'}"),
        # a module constant
        ("unsupported mode", "Pass `--mode` with one of ['fast', 'slow']"),
    ],
)
def test_a_literal_compared_with_gives_the_setting_its_values(
    bench: Store, message: str, first: str
) -> None:
    assert page_with_message(bench, "bench", message).solutions[0].text.startswith(first)


def test_the_value_an_early_exit_takes_is_no_way_out(bench: Store) -> None:
    page = page_with_message(bench, "bench", "no x routes")
    assert not any("internal" in s.text for s in page.solutions)


def test_a_json_flag_holding_the_field_gets_no_bare_value(bench: Store) -> None:
    # `--spec-config` takes a JSON object: "with one of ['eagle', 'mtp']" is no value of it
    page = page_with_message(bench, "bench", "unsupported method")
    assert not any(s.text.startswith("Pass `--spec-config` with") for s in page.solutions)
