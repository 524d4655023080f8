"""Each name a solution tells the user to set or pass is checked against the version's
index before the page is written; a way out that leads back into the same check is none."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store.base import Store

# Shapes of vllm 0.33.0 (an arguments dataclass whose parser declares its flags one by one
# and misses a few; another whose fields a loop turns into flags), of click 8.1.7's
# `open_stream` and of a validator that calls itself on each item of a list, cut down.
SOURCES = {
    "tool/__init__.py": "",
    "tool/config.py": """
from dataclasses import dataclass


@dataclass
class MambaConfig:
    enable_rounding: bool = False
    '''Round the state stochastically.'''
""",
    "tool/args.py": """
import argparse
from dataclasses import dataclass, fields

from tool.config import MambaConfig


@dataclass
class EngineArgs:
    model: str = "m"
    max_model_len: int = 0
    enforce_eager: bool = False
    seed: int = 0
    mamba_config: MambaConfig | None = None

    def __post_init__(self):
        if self.max_model_len < 0:
            raise ValueError("max_model_len must not be negative")

    @staticmethod
    def add_cli_args(parser):
        parser.add_argument("--model", type=str)
        parser.add_argument("--max-model-len", type=int)
        parser.add_argument("--enforce-eager", action="store_true")
        parser.add_argument("--seed", type=int)
        return parser


@dataclass
class FrontendArgs:
    enable_auto_choice: bool = False
    choice_parser: str | None = None

    @classmethod
    def add_cli_args(cls, parser):
        for field in fields(cls):
            parser.add_argument("--" + field.name.replace("_", "-"))
        return parser


def make_parser():
    return FrontendArgs.add_cli_args(EngineArgs.add_cli_args(argparse.ArgumentParser()))
""",
    "tool/engine.py": """
class Engine:
    def __init__(self, mamba_config, max_model_len):
        self.mamba_config = mamba_config
        self.max_model_len = max_model_len

    def check(self):
        if self.mamba_config.enable_rounding:
            raise ValueError("Stochastic rounding is not supported on this device.")


def validate_serve_args(args):
    if args.enable_auto_choice and args.choice_parser is None:
        raise TypeError("Auto choice needs a parser.")

""",
    "tool/streams.py": """
def open_stream(filename, mode="r", atomic=False):
    if atomic and "x" in mode:
        raise ValueError("Use the `overwrite`-parameter instead.")
    if atomic and "a" in mode:
        raise ValueError("Appending is not supported; use the `atomic` parameter off.")
    return filename


def validator(*args, pre=False, skip_on_failure=False):
    if args:
        return validator()(*args)
    if pre is False and skip_on_failure is not True:
        raise TypeError("A validator after the fields must be given skip_on_failure=True.")
    return lambda f: f


def get_style(name, *, default=None):
    try:
        return parse_style(name)
    except ValueError:
        if default is not None:
            return get_style(default)
        raise KeyError(f"no style named {name!r}")


def parse_style(name):
    return name
""",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tool"), "tool", SOURCES)


def _said(page) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(s.text for s in page.solutions)


def test_a_field_its_parser_does_not_declare_is_no_flag(store: Store) -> None:
    page = page_with_message(store, "tool", "Stochastic rounding")
    assert "--mamba-config" not in _said(page)
    assert page.example_fix is None or "--mamba-config" not in page.example_fix.after


def test_a_field_a_generator_makes_a_flag_stays(store: Store) -> None:
    page = page_with_message(store, "tool", "Auto choice needs")
    assert "--enable-auto-choice" in _said(page) or "--choice-parser" in _said(page)


def test_advice_naming_a_parameter_the_version_lacks_is_context(store: Store) -> None:
    page = page_with_message(store, "tool", "Use the `overwrite`")
    assert "overwrite" not in _said(page)
    assert "this version of tool has no `overwrite`" in page.what_it_means


def test_advice_naming_a_parameter_it_has_stays(store: Store) -> None:
    page = page_with_message(store, "tool", "Appending is not supported")
    assert "atomic" in _said(page)


def test_a_branch_calling_the_function_again_is_no_way_out(store: Store) -> None:
    # `args` given: `validator()` runs the same check again, on the defaults
    page = page_with_message(store, "tool", "A validator after the fields")
    assert "`args`" not in _said(page)


def test_a_branch_calling_it_with_the_changed_value_is_a_fallback(store: Store) -> None:
    # `default` given: `get_style(default)` checks the new value, which may pass, but what
    # it returns is the fallback's style in place of the one asked for: it hides the failure
    # (`try_failure.py`), said in "What it means"; the way out is the name that failed
    page = page_with_message(store, "tool", "no style named")
    assert "`default`" not in _said(page)
    assert "returns `get_style(default)` instead (the fallback's result" in page.what_it_means
    assert "another `name`" in _said(page)
