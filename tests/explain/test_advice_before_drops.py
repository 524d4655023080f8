"""The message's own advice ranks before a way out that leaves out a setting the user gave:
its authors say how to keep the feature ("Please use KEY=VALUE format."), while "Do not pass
`--header`" gives it up. A setting the advice itself names keeps its place."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.advice_first import (
    advice_before_drops,
    advice_before_switched_off,
    kept_by_advice,
)
from errdex.explain.page import Solution
from errdex.store import Store

BENCH = {
    "bench/__init__.py": "",
    "bench/serve.py": """
        import argparse


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--header", nargs="+")
            args = parser.parse_args()
            if args.header:
                for item in args.header:
                    if "=" not in item:
                        raise ValueError("Invalid header format. Please use KEY=VALUE format.")
        """,
}


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("bench"), "bench", BENCH)


def test_the_advice_comes_before_leaving_the_flag_out(bench: Store) -> None:
    page = page_with_message(bench, "bench", "Invalid header format")
    texts = [s.text for s in page.solutions]
    assert texts[0] == "Do what the message says: “Please use KEY=VALUE format.”"
    assert texts[1].startswith("Do not pass `--header`")


def _setting(text: str, knob: str, *, drops: bool) -> Solution:
    return Solution(text=text, knob=knob, kind="setting", drops=drops)


def test_the_advice_takes_the_place_of_the_first_drop_ahead_of_it() -> None:
    drop = _setting("Do not pass `--spec`", "--spec", drops=True)
    kept = _setting("Pass `--watermark '{\"allow\": true}'`", "--watermark", drops=False)
    other = _setting("Do not pass `--watermark`", "--watermark", drops=True)
    advice = Solution(text="Do what the message says: “Set allow=true.”", kind="input")
    ranked = advice_before_drops([drop, kept, other, advice], [advice])
    assert ranked == [advice, drop, kept, other]


def test_nothing_moves_without_a_drop_ahead() -> None:
    kept = _setting("Pass `--size 8`", "--size", drops=False)
    advice = Solution(text="Do what the message says: “Increase the size.”", kind="input")
    drop = _setting("Do not pass `--spec`", "--spec", drops=True)
    assert advice_before_drops([kept, advice, drop], [advice]) == [kept, advice, drop]


def test_a_setting_the_advice_names_keeps_its_place() -> None:
    # "Please disable --fast" is the message's own word on `--fast`
    drop = _setting("Do not pass `--fast`", "--fast", drops=True)
    advice = Solution(text="Do what the message says: “Please disable --fast.”", kind="setting")
    assert advice_before_drops([drop, advice], [advice]) == [drop, advice]


def test_a_section_set_to_null_is_a_feature_given_up() -> None:
    # vllm's HiSparse: "use FULL_AND_PIECEWISE" keeps the section the user gave
    nulled = _setting(
        "Pass `--attention-config '{\"hisparse_config\": null}'` (with the rest of your "
        "--attention-config fields) (so that `self.attention_config.hisparse_config` is None).",
        "--attention-config",
        drops=False,
    )
    advice = Solution(
        text="Do what the message says: “use FULL_AND_PIECEWISE (the default).”", kind="setting"
    )
    assert advice_before_drops([nulled, advice], [advice]) == [advice, nulled]
    # advice that gives something up itself keeps its place
    remove = Solution(text="Do what the message says: “Remove one of them.”", kind="input")
    assert advice_before_drops([nulled, remove], [remove]) == [nulled, remove]
    # a value's key set to null (its default) is no section
    value = _setting(
        "Pass `--attention-config '{\"device_buffer_size\": null}'`",
        "--attention-config",
        drops=False,
    )
    assert advice_before_drops([value, advice], [advice]) == [value, advice]


def test_the_advice_is_known_by_its_data_not_its_words() -> None:
    drop = _setting("Do not pass `--spec`", "--spec", drops=True)
    # the message's advice, however a later rule words it
    reworded = Solution(text="If you wrote the command: follow “Increase the size.”", advice=True)
    assert kept_by_advice(reworded, drop)
    # words that read like advice are not what makes it the message's
    quoted = Solution(text="Shrink it, as the message says: “Increase the size.”")
    assert not kept_by_advice(quoted, drop)


def _switch(name: str) -> Solution:
    return Solution(
        text=f"Set `{name}=0` (so that `envs.{name}` is false).",
        knob=name,
        kind="setting",
        turns_off=True,
    )


def test_the_advice_comes_before_a_switch_the_user_turned_on_turned_off() -> None:
    # vllm's ModelScope: "please install by `pip install modelscope -U`" keeps what
    # `VLLM_USE_MODELSCOPE=1` asked for; `=0` gives it up
    off = _switch("VLLM_USE_MODELSCOPE")
    install = Solution(
        text="Run `pip install modelscope -U`, as the message says: “please install by "
        "`pip install modelscope -U`”",
        kind="environment",
        advice=True,
    )
    assert advice_before_switched_off([off, install]) == [install, off]
    assert kept_by_advice(install, off)
    # not advice that names the switch, nor one that gives something up itself
    named = Solution(
        text="Do what the message says: “Set VLLM_USE_MODELSCOPE=0 to skip it.”", advice=True
    )
    assert advice_before_switched_off([off, named]) == [off, named]
    disable = Solution(text="Do what the message says: “Disable the hub.”", advice=True)
    assert advice_before_switched_off([off, disable]) == [off, disable]
    # a way out that keeps the switch stays where it is
    kept = _setting("Pass `--size 8`", "--size", drops=False)
    assert advice_before_switched_off([kept, install]) == [kept, install]
