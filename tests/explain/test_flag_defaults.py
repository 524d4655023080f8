"""A yes/no flag's default decides how a fix turns it off: leaving out a flag whose field
defaults to `True` leaves it on (`--no-x` turns it off), and a yes/no flag takes no value
(`--x`, never `--x VALUE`)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.extract import extract_file
from errdex.facts import FlagFact
from errdex.store import Store

FILES = {
    **SERVE_CLI,
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class CacheConfig:
            bounded_replay: bool = True
            \"\"\"Replay only the window the model attends to.\"\"\"
            chunked: bool | None = None
            manager_off: bool | None = None
            retention: int | None = 0


        class Offload:
            def check_retention(self, cache_config, chunk):
                interval = cache_config.retention
                if interval is not None and interval < 0:
                    raise ValueError("The retention must be non-negative.")
                if interval is not None and interval % chunk != 0:
                    raise ValueError("The retention must be a multiple of the chunk.")


        class Attention:
            def __init__(self, cache_config, context_size):
                if cache_config.bounded_replay and context_size > 1:
                    raise ValueError("Bounded replay does not work with context parallelism.")

            def check(self, cache_config):
                if cache_config.chunked is not None:
                    raise ValueError("Chunking is decided by the engine here.")


        class Engine:
            def check_manager(self, cache_config, needs_off):
                if cache_config.manager_off is None:
                    cache_config.manager_off = needs_off
                elif cache_config.manager_off is False and needs_off:
                    raise ValueError("The manager was turned on but is not supported here.")


        def run(args):
            if args.headless:
                if args.server_count is not None and args.server_count > 0:
                    raise ValueError("--server-count cannot be used with --headless.")


        def compare(args, ours, theirs):
            if args.check_results and ours != theirs:
                raise ValueError("The results differ from the reference.")
        """,
    "eng/args.py": """
        import argparse
        from dataclasses import dataclass

        from eng.config import CacheConfig


        @dataclass
        class EngineArgs:
            bounded_replay: bool = CacheConfig.bounded_replay
            chunked: bool | None = CacheConfig.chunked
            manager_off: bool | None = CacheConfig.manager_off
            retention: int | None = CacheConfig.retention

            @staticmethod
            def add_cli_args(parser):
                kwargs = get_kwargs(CacheConfig)
                parser.add_argument("--bounded-replay", **kwargs["bounded_replay"])
                parser.add_argument("--chunked", **kwargs["chunked"])
                parser.add_argument("--manager-off", **kwargs["manager_off"])
                parser.add_argument("--retention", **kwargs["retention"])
                parser.add_argument("--headless", action="store_true")
                parser.add_argument("--server-count", type=int, default=None)
                parser.add_argument(
                    "--check-results", action=argparse.BooleanOptionalAction, default=True
                )
                return parser
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", FILES)


def test_a_flag_on_by_default_is_turned_off_with_its_negative_form(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Bounded replay does not work")
    texts = [s.text for s in page.solutions]
    assert not any("Do not pass `--bounded-replay`" in t for t in texts)
    (turned,) = [s for s in page.solutions if s.knob == "--bounded-replay"]
    assert turned.text.startswith("Pass `--no-bounded-replay`")
    fixes = [s.fix for s in page.solutions if s.fix is not None]
    assert fixes, "the way out keeps its fix"
    for fix in fixes:
        # left out, the flag stays on: the fix names the form that turns it off
        assert fix.after.split("\n")[-1].rstrip().endswith("--no-bounded-replay")


def test_a_yes_no_flag_given_to_be_not_none_takes_no_value(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Chunking is decided")
    fixes = [s.fix for s in page.solutions if s.fix is not None]
    assert fixes
    for fix in fixes:
        assert "VALUE" not in fix.before
        assert fix.before.endswith("--chunked")


def test_a_pair_left_out_is_given_before_in_the_form_the_path_tests(eng: Store) -> None:
    # the check is met with the flag given False: `--no-manager-off`, not `--manager-off`
    page = page_with_message(eng, "eng", "The manager was turned on")
    (fix,) = [s.fix for s in page.solutions if s.fix is not None and s.knob == "--manager-off"]
    assert fix.before.endswith(" --no-manager-off")
    assert "manager-off" not in fix.after


def test_a_flag_argparse_declares_on_is_turned_off_with_its_negative_form(eng: Store) -> None:
    page = page_with_message(eng, "eng", "The results differ")
    (turned,) = [s for s in page.solutions if s.knob == "--check-results"]
    assert turned.text.startswith("Pass `--no-check-results`")
    assert not any("Do not pass `--check-results`" in s.text for s in page.solutions)


def test_a_store_true_flag_the_path_holds_is_given_without_a_value(eng: Store) -> None:
    page = page_with_message(eng, "eng", "--server-count cannot be used")
    fixes = [s.fix for s in page.solutions if s.fix is not None]
    assert fixes
    for fix in fixes:
        assert "--headless" in fix.before
        assert "HEADLESS" not in fix.before + fix.after


def test_a_flag_declaration_says_its_action_and_default() -> None:
    facts = extract_file(
        "demo/cli.py",
        textwrap.dedent("""
            import argparse

            def make_parser(parser):
                parser.add_argument(
                    "--check",
                    action=argparse.BooleanOptionalAction,
                    default=True,
                    help="Check the result (default: on).",
                )
                parser.add_argument("--plot", action="store_true")
                parser.add_argument("--keep", action="store_false")
                parser.add_argument("--repeats", type=int, default=None)
                return parser
            """).encode(),
    )
    assert facts.flags == (
        FlagFact("--check", 5, "make_parser", bare=True, negated=True, default="True"),
        FlagFact("--plot", 11, "make_parser", bare=True, default="False"),
        FlagFact("--keep", 12, "make_parser", bare=True, default="True"),
        FlagFact("--repeats", 13, "make_parser", default="None"),
    )


def test_fields_keep_their_literal_defaults_and_the_fields_they_default_to() -> None:
    facts = extract_file(
        "demo/config.py",
        textwrap.dedent("""
            from dataclasses import dataclass, field

            @dataclass
            class CacheConfig:
                replay: bool = True
                size: int = 16
                tuned: bool = field(default=False)

            @dataclass
            class EngineArgs:
                replay: bool = CacheConfig.replay
                tuned: bool = get_field(CacheConfig, "tuned")
                name: str = "x"
            """).encode(),
    )
    defaults = {c.name: c.defaults for c in facts.classes}
    assert defaults == {
        "CacheConfig": {"replay": "True", "size": "16", "tuned": "False"},
        "EngineArgs": {"replay": "CacheConfig.replay", "tuned": "CacheConfig.tuned", "name": "'x'"},
    }


def test_a_flag_left_out_for_none_says_the_value_its_field_gives_instead(eng: Store) -> None:
    # left out, `--retention` gives its field's `0`, not None: `0 < 0` is false, so leaving
    # it out is a way out, said with that value; `0 % chunk` no test here decides, so there
    # leaving it out is not offered
    page = page_with_message(eng, "eng", "The retention must be non-negative")
    (left,) = [s for s in page.solutions if s.text.startswith("Do not pass `--retention`")]
    assert "is None" not in left.text
    assert (
        "left out, `interval` is `0`, so that `interval is not None and interval < 0`" in left.text
    )
    page = page_with_message(eng, "eng", "The retention must be a multiple")
    texts = [s.text for s in page.solutions]
    assert not any(t.startswith("Do not pass `--retention`") for t in texts), texts
