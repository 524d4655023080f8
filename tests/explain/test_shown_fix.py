"""The page's example fix is of its first way out: a fix that leaves out a setting the user
gave is not shown below the message's own advice that keeps it and has no line to write
(it stays under its own solution). Advice that gives something up itself, names the flag
the fix writes, or a setting that holds the very value the message rejects keep the fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.example_fix import shown_fix
from errdex.explain.page import ExampleFix, Solution
from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            enforce_eager: bool = False

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--enforce-eager", action="store_true")
                return parser
        """,
    "eng/config.py": """
        class EngineConfig:
            def check_weights(self):
                if self.model_config.enforce_eager:
                    raise ValueError("eager needs a mask. Please provide the mask in the weights.")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_no_fix_leaves_the_flag_out_below_the_advice_that_keeps_it(eng: Store) -> None:
    page = page_with_message(eng, "eng", "eager needs a mask")
    assert page.solutions[0].text.startswith("Do what the message says:")
    dropped = page.solutions[1]
    assert dropped.text.startswith("Do not pass `--enforce-eager`") and dropped.fix is not None
    assert page.example_fix is None


_FIX = ExampleFix(before="eng serve --x VALUE", after="eng serve", note="")


def _drop(condition: str = "x is not None") -> Solution:
    return Solution(
        text="Do not pass `--x` in any form",
        knob="--x",
        kind="setting",
        drops=True,
        condition=condition,
        fix=_FIX,
    )


def _advice(said: str) -> Solution:
    return Solution(text=f"Do what the message says: “{said}”", kind="input", advice=True)


def test_the_advice_that_keeps_the_setting_withholds_the_fix() -> None:
    assert shown_fix([_advice("Please provide mask_hidden in the weights."), _drop()]) == (
        None,
        True,
    )


@pytest.mark.parametrize(
    "said",
    [
        "Consider omitting the flag to let it decide.",  # the advice is to leave it out
        "Disable one of them.",
        "Enable only one load-balancing mode.",
        "Please use --x or select another backend.",  # it names the flag left out
    ],
)
def test_advice_that_asks_for_the_drop_keeps_the_fix(said: str) -> None:
    assert shown_fix([_advice(said), _drop()]) == (_FIX, False)


def test_a_flag_the_fix_writes_named_by_the_advice_keeps_the_fix() -> None:
    off = ExampleFix(before="eng serve --x", after="eng serve --no-x", note="")
    drop = Solution(text="Pass `--no-x`", knob="--x", kind="setting", drops=True, fix=off)
    assert shown_fix([_advice("Please use --no-x instead."), drop]) == (off, False)


def test_leaving_out_the_value_the_message_rejects_keeps_the_fix() -> None:
    message = "{x.name} is not supported; use FAST."
    assert shown_fix([_advice("use FAST."), _drop()], message) == (_FIX, False)


def test_without_advice_above_the_first_fix_is_shown() -> None:
    other = Solution(text="Pass `--y 2`", knob="--y", kind="setting")
    assert shown_fix([other, _drop()]) == (_FIX, False)
