"""A way out that keeps what the user asked for ranks before one that gives it up: the
flag's JSON field with the value the check takes before leaving the flag out (its fix keeping
the other fields the path holds); at a raise in place of a failed import, the install before
an argument that steers away from the import."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.kept_first import drops_argument, drops_setting
from errdex.explain.page import Change, Solution
from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            sample_method: str = "greedy"
            draft_method: str = "greedy"
            parallel: bool = False
            method: str = "eagle"


        class EngineConfig:
            def check_watermark(self):
                if self.spec_config is not None:
                    spec = self.spec_config
                    if spec.draft_method != "probabilistic":
                        raise ValueError("watermarking requires draft_method='probabilistic'")
                    if spec.sample_method != "standard":
                        raise ValueError("watermarking requires sample_method='standard'")
                    if spec.parallel and spec.method not in ("dflash", "dspark"):
                        raise ValueError("parallel drafting is not supported with watermarking")
        """,
    "eng/args.py": """
        import json
        from dataclasses import dataclass

        from eng.config import SpecConfig


        @dataclass
        class EngineArgs:
            spec_config: SpecConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--spec-config", type=json.loads)
                return parser
        """,
    "eng/transport.py": """
        class Proxy:
            def __init__(self, url):
                self.url = url


        class Transport:
            def __init__(self, proxy: Proxy):
                if proxy.url.scheme == "socks5":
                    try:
                        import socksio
                    except ImportError:
                        raise ImportError(
                            "Using SOCKS proxy, but the 'socksio' package is not installed. "
                            "Make sure to install eng using `pip install eng[socks]`."
                        ) from None
        """,
    "eng/native.py": """
        class Kernel:
            def __init__(self, fast=False):
                if fast:
                    try:
                        import eng._speedups
                    except ImportError:
                        raise ImportError(
                            "fast=True needs the compiled eng._speedups module. "
                            "Make sure to install eng using `pip install eng[fast]`."
                        ) from None
        """,
    "eng/bench.py": """
        import argparse


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--decode", action="store_true")
            parser.add_argument("--paged", action="store_true")
            args = parser.parse_args()
            if args.decode:
                if args.paged:
                    raise ValueError("--decode already uses paged KV; do not pass --paged")
        """,
    "eng/gpu.py": """
        import argparse


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--gpu", action="store_true")
            args = parser.parse_args()
            if args.gpu:
                try:
                    import cupy
                except ImportError:
                    raise ImportError(
                        "--gpu needs the 'cupy' package: run `pip install cupy`, "
                        "or do not pass --gpu"
                    ) from None
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_the_flags_field_comes_before_leaving_the_flag_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "watermarking requires sample_method")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith('Pass `--spec-config \'{"sample_method": "standard"}\'`')
    assert texts[1].startswith("Do not pass `--spec-config` in any form")


def test_the_json_fix_keeps_the_fields_the_path_holds(eng: Store) -> None:
    # the earlier check of the same object asks for `draft_method`: the user's JSON has it,
    # and a fix that wrote only `sample_method` would meet that check
    page = page_with_message(eng, "eng", "watermarking requires sample_method")
    fix = page.solutions[0].fix
    assert fix is not None
    kept = '\'{"draft_method": "probabilistic", "sample_method": "standard"}\''
    assert fix.after.endswith(f"--spec-config {kept}")
    assert '"draft_method": "probabilistic", "sample_method": "VALUE"' in fix.before
    assert page.example_fix == fix


def test_the_fields_are_kept_for_a_field_of_a_wider_test(eng: Store) -> None:
    page = page_with_message(eng, "eng", "parallel drafting is not supported")
    fix = next(s.fix for s in page.solutions if s.fix is not None and '"parallel"' in s.fix.after)
    kept = '{"draft_method": "probabilistic", "sample_method": "standard", "parallel": false}'
    assert fix.after.endswith(f"--spec-config '{kept}'")


def test_the_install_comes_before_steering_away_from_the_import(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Using SOCKS proxy, but the 'socksio' package")
    kinds = [s.kind for s in page.solutions]
    assert page.solutions[0].text.startswith("Run `pip install eng[socks]`")
    assert "input" in kinds
    assert kinds.index("input") > max(i for i, k in enumerate(kinds) if k == "environment")


def test_a_failed_import_of_the_projects_own_module_keeps_the_order(eng: Store) -> None:
    # the same shape as the SOCKS raise, but the module is the project's own: no package
    # of another distribution to install, so leaving the argument out keeps its rank
    page = page_with_message(eng, "eng", "fast=True needs the compiled")
    assert page.solutions[0].kind == "input"
    assert page.solutions[0].text.startswith("Pass an empty (false) value for the argument `fast`")


def test_the_flag_the_message_says_not_to_pass_is_left_out_first(eng: Store) -> None:
    # the message's own word: leaving out `--paged` keeps the `--decode` the user asked for
    page = page_with_message(eng, "eng", "--decode already uses paged KV")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Do not pass `--paged`")
    assert texts[1].startswith("Do not pass `--decode`")


def test_the_flag_the_message_says_not_to_pass_stays_before_the_install(eng: Store) -> None:
    # a failed import of another distribution's module puts the install before a setting
    # that steers away from it, except the one the message itself names: both are its word
    page = page_with_message(eng, "eng", "--gpu needs the 'cupy' package")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Do not pass `--gpu`"), texts
    assert texts[1].startswith("Install the package that provides `cupy`"), texts


def test_leaving_a_setting_out_is_read_from_the_action_not_its_words(eng: Store) -> None:
    page = page_with_message(eng, "eng", "watermarking requires sample_method")
    dropped = [s for s in page.solutions if s.drops]
    assert [s.text.split(" (")[0] for s in dropped] == ["Do not pass `--spec-config` in any form"]
    assert all(drops_setting(s) for s in dropped)
    # the words alone decide nothing: a setting said so without the data is kept
    said = Solution(text="Do not pass `--x`.", knob="--x", kind="setting")
    assert not drops_setting(said)


def test_an_argument_is_given_up_when_its_change_leaves_it_out_or_passes_none() -> None:
    def change(after: str | None) -> Change:
        return Change(form="call", target="eng.Client", argument="app", after=after)

    left_out = Solution(text="Pass `transport=...`.", kind="input", change=change(None))
    none = Solution(text="Pass `app=None`.", kind="input", change=change("None"))
    replaced = Solution(text="Leave it out of the way.", kind="input", change=change("APP"))
    assert drops_argument(left_out) and drops_argument(none)
    assert not drops_argument(replaced)  # the change says what it passes: not the words
    worded = Solution(text="Leave the argument `app` out (or pass None).", kind="input")
    assert drops_argument(worded)  # no change as data: the input rules' words
